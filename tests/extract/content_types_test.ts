// Main content of pages that are no article (issue #24): products, collections, listings,
// services. Each test names the pattern a rule reads, on markup written for it.
import assert from "node:assert/strict";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { renderPlainText } from "../../lib/extract/content/plain_text.ts";
import { renderMarkdown } from "../../lib/extract/content/markdown_render.ts";

const md = (html: string) =>
  renderMarkdown(parseHtml(html), { baseUrl: "https://ex.test/", clean: false }).markdown;

Deno.test("elements set side by side without a space start a new word where case changes", () => {
  // A specs row and a product card: label and value, brand and name, in sibling <span>s
  // that the page's styles lay apart; a comment between them changes nothing.
  const page =
    '<div class="row"><span>Publisher</span><!--x--><span>Houghton Mifflin</span></div>' +
    '<a href="/p"><span>The North Face</span><span>Wawona 6 Tent</span></a>' +
    "<div><span>Pages</span><span>240</span></div>" +
    // A drop cap, a styled stem and a footnote mark stay glued to their word.
    "<p><span>T</span>he <b>walk</b>ing H<sub>2</sub>O x<sup>2</sup>a<sup>B</sup></p>";
  const text = renderPlainText(parseHtml(page));
  assert.equal(
    text,
    "Publisher Houghton Mifflin\nThe North Face Wawona 6 Tent\nPages 240\nThe walking H2O x2aB",
  );
  const markdown = md(page);
  assert.match(markdown, /Publisher Houghton Mifflin/);
  assert.match(markdown, /\[The North Face Wawona 6 Tent\]/);
  assert.match(markdown, /Pages 240/);
  assert.match(markdown, /The \*\*walk\*\*ing H2O x2aB/);
});
