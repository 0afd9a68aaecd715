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

/**
 * One row of a page builder (WPBakery's markup): text columns of paragraphs, deep in wrappers,
 * each column with its own style class when given one.
 */
function builderRow(...columns: [string, string[]][]): string {
  const inner = columns.map(([style, paragraphs]) =>
    `<div class="wpb_text_column wpb_content_element ${style}"><div class="wpb_wrapper">${
      paragraphs.map((p) => `<p>${p}</p>`).join("")
    }</div></div>`
  );
  return `<div class="vc_row wpb_row vc_row-fluid"><div class="wpb_column vc_column_container">
    <div class="vc_column-inner"><div class="wpb_wrapper">${
    inner.join("")
  }</div></div></div></div>`;
}

Deno.test("an article a page builder splits into rows keeps the rows around the longest", () => {
  const links = Array.from(
    { length: 5 },
    (_, i) => `<li><a href="/p${i}">Another post ${i}</a></li>`,
  );
  const part = (i: number) => `Middle part ${i}. ${PROSE.repeat(3)}`;
  const middle: [string, string[]][] = [
    ["vc_custom_1570185518034", [0, 1, 2, 3, 4].map(part)],
    ["", [part(5)]],
    ["vc_custom_1570197889680", [part(6)]],
  ];
  const page = `<html><head><title>Company cars</title></head><body>
    <nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
    <article><h1>Company cars</h1><div class="entry-content">
    ${builderRow(["", [`The opening paragraph, before the first heading. ${PROSE.repeat(3)}`]])}
    ${builderRow(...middle)}
    ${builderRow(["", [`The closing paragraph, one. ${PROSE.repeat(2)}`, `And two. ${PROSE}`]])}
    </div><div class="related-posts"><h3>More from the blog</h3><ul>${links.join("")}</ul></div>
    </article>
    <aside><p>About this blog: ${PROSE.repeat(2)}</p></aside></body></html>`;
  const text = mainText(page);
  assert.match(text, /^The opening paragraph/m);
  assert.match(text, /Middle part 6/);
  assert.match(text, /^And two\./m);
  for (const chrome of ["Another post", "More from the blog", "About this blog", "Home"]) {
    assert.ok(!text.includes(chrome), `${chrome} kept:\n${text}`);
  }
});

Deno.test("widening to a builder's rows stops at a comment thread beside them", () => {
  const part = (i: number) => `Middle part ${i}. ${PROSE.repeat(3)}`;
  const comment = (i: number) => `<p>Comment ${i}: ${PROSE.repeat(3)}</p>`;
  const page = `<html><head><title>Company cars</title></head><body><div class="post">
    <div class="entry-content">
    ${builderRow(["", [`The opening paragraph, before the first heading. ${PROSE.repeat(3)}`]])}
    ${builderRow(["vc_custom_1570185518034", [0, 1, 2, 3, 4].map(part)], ["", [part(5)]])}
    ${builderRow(["", [`The closing paragraph, one. ${PROSE.repeat(2)}`, `And two. ${PROSE}`]])}
    </div><div class="comments">${[1, 2, 3, 4].map(comment).join("")}</div>
    </div></body></html>`;
  const text = mainText(page);
  assert.match(text, /^The opening paragraph/m);
  assert.match(text, /^And two\./m);
  assert.doesNotMatch(text, /Comment \d/);
  // Named as nothing, a thread shows itself by the box to reply in.
  const unnamed = page.replace(
    '<div class="comments">',
    '<div class="responses"><form><input name="author"><textarea name="reply"></textarea></form>',
  );
  const alone = mainText(unnamed);
  assert.match(alone, /^The opening paragraph/m);
  assert.doesNotMatch(alone, /Comment \d/);
});

Deno.test("a paragraph set in an inline wrapper beside the body joins it, as a <div> would", () => {
  const standfirst =
    "The Lions have only ever won one series in New Zealand in more than 100 years, " +
    "and a writer meets the players of both sides to find out why";
  const page = `<html><head><title>Tour de force</title></head><body><table><tr>
    <td><a href="/sport">Sport</a><br><a href="/rugby">Rugby</a><br><a href="/cricket">Cricket</a></td>
    <td><div id="Article"><font size="3">${standfirst}</font>
    <div id="ArticleBody"><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(3)}</p><p>${
    PROSE.repeat(3)
  }</p>
    </div><font size="1"><a href="/terms">Terms</a> | <a href="/privacy">Privacy</a></font>
    </div></td></tr></table></body></html>`;
  const text = mainText(page);
  assert.ok(text.startsWith(standfirst), text);
  for (const chrome of ["Terms", "Privacy", "Rugby"]) {
    assert.ok(!text.includes(chrome), `${chrome} kept:\n${text}`);
  }
});

Deno.test("a list of links the story's sentence introduces stays; a labelled link list goes", () => {
  const cited = ["Stress levels", "Mood", "Memory and focus", "Sleep"].map((item, i) =>
    `<li><a href="https://pubmed.example.invalid/${i}">${item}</a></li>`
  );
  const related = [1, 2, 3, 4].map((i) => `<li><a href="/story-${i}">Another story ${i}</a></li>`);
  const page = `<html><head><title>Meditation</title></head><body><article>
    <h1>Meditation</h1><p>${PROSE.repeat(3)}</p>
    <p>Meditation has been shown to help improve:</p><ul>${cited.join("")}</ul>
    <p>${PROSE.repeat(3)}</p><p>Related stories:</p><ul>${related.join("")}</ul>
    <p>${PROSE.repeat(2)}</p><p>You might also like:</p><ul>${related.join("")}</ul>
    </article></body></html>`;
  const text = mainText(page);
  assert.match(text, /help improve:\nStress levels\nMood\nMemory and focus\nSleep\n/);
  assert.doesNotMatch(text, /Another story/);
});

Deno.test("a tool's description, a feature, a person of the story: no bio, no appeal", () => {
  const tool = "Sublime Text is a fast, lightweight, and highly efficient text editor popular " +
    "among developers for its responsiveness and its many plugins.";
  const page = `<html><head><title>Editors</title></head><body><article><h1>Editors</h1>
    <p>${PROSE.repeat(3)}</p><h2>Sublime Text</h2><p>${tool}</p>
    <ul><li>Support for large files: it opens files of many gigabytes without a pause.</li>
    <li>Macros: it records and plays back what you type.</li></ul><p>${PROSE.repeat(3)}</p>
    <p>Mr Danielevsky is the editor of a local independent newspaper.</p><p>${PROSE.repeat(2)}</p>
    <p>Jane Doe is a writer and editor who covers software for the paper.</p>
    <p>Support our journalism today.</p></article></body></html>`;
  const text = mainText(page);
  assert.match(text, /Sublime Text is a fast/);
  assert.match(text, /^Support for large files/m);
  assert.match(text, /^Mr Danielevsky is the editor/m);
  assert.doesNotMatch(text, /Jane Doe/);
  assert.doesNotMatch(text, /Support our journalism/);
});

Deno.test("a code block is read whole, whatever its highlighter names its tokens", () => {
  const code = `<pre><code>const (
    _  = iota <span class="comment">// ignore the first value</span>
    KB = 1 &lt;&lt; (10 * iota) <span class="meta">// a kilobyte</span>
)<span style="display:none">HIDDEN TOKEN</span></code></pre>`;
  const page = `<html><head><title>Constants</title></head><body><article>
    <h1>Constants</h1><p>${PROSE.repeat(3)}</p>${code}<p>${PROSE.repeat(3)}</p>
    <div class="share"><a href="/s">Share this</a></div></article></body></html>`;
  const text = mainText(page);
  assert.match(text, /\/\/ ignore the first value/);
  assert.match(text, /\/\/ a kilobyte/);
  assert.doesNotMatch(text, /HIDDEN TOKEN/);
  assert.doesNotMatch(text, /Share this/);
});

Deno.test("a heading's own link keeps its words whatever it is named (mdBook's a.header)", () => {
  const heading = (id: string, title: string) =>
    `<h2 id="${id}"><a class="header" href="#${id}">${title}</a></h2><p>${PROSE.repeat(3)}</p>`;
  const page = `<html><head><title>Traits</title></head><body><main>
    <div class="header"><a href="/">The Book</a> <a href="/print">Print this book</a></div>
    <h1>Traits</h1><p>${PROSE.repeat(3)}</p>
    ${heading("trait-bounds", "Trait Bound Syntax")}${heading("where-clauses", "Clearer Bounds")}
    </main></body></html>`;
  const text = mainText(page);
  assert.match(text, /^Trait Bound Syntax$/m);
  assert.match(text, /^Clearer Bounds$/m);
  assert.doesNotMatch(text, /Print this book/);
});
