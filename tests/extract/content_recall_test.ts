/**
 * Content the main-content extractor keeps that it used to drop (issue #24's recall work),
 * each beside chrome of the same page that still goes.
 */
import assert from "node:assert/strict";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { extractMainContent } from "../../lib/extract/content/mod.ts";
import { renderPlainText } from "../../lib/extract/content/plain_text.ts";

/** The main content of `page` as plain text: the path of the service's text=true. */
const mainText = (page: string) => renderPlainText(extractMainContent(parseHtml(page)));

const PROSE = "A sentence of the article long enough to count, with commas, clauses, and words. ";

Deno.test("a heading whose id spells its own words is judged by its class, not its id", () => {
  const page = `<html><head><title>Shopping</title></head><body><article>
    <h1>Shopping</h1><p>${PROSE.repeat(3)}</p>
    <h2 id="h-why-use-social-shopping"><strong>Why Use Social Shopping?</strong></h2>
    <p>${PROSE.repeat(3)}</p>
    <h2 id="related-stories-heading">Stories</h2><p>${PROSE.repeat(2)}</p>
    <div id="social-share"><a href="/s">Share this</a> on the networks you like best</div>
    <h3 class="share-title" id="share-this-story">Share this story</h3>
    </article></body></html>`;
  const text = mainText(page);
  assert.match(text, /Why Use Social Shopping\?/);
  // An id naming chrome with words the heading does not hold is still read as chrome; so is
  // a class naming chrome whatever the id says.
  assert.doesNotMatch(text, /^Stories$/m);
  assert.doesNotMatch(text, /Share this/);
});
