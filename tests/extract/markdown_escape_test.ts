/**
 * Escaping checked by a real CommonMark parser (markdown-it): text that looks like Markdown,
 * rendered by the Markdown view and parsed back, is the same text in the same one element.
 * (Image alt text is left out: markdown-it 14 drops backslash-escaped characters from `alt`,
 * where CommonMark keeps them.)
 */
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { renderMarkdown } from "../../lib/extract/content/markdown_render.ts";
import { parseHtml, selectAll, textOf } from "../../lib/extract/dom/mod.ts";

const HOSTILE = [
  "# not a heading",
  "###### six",
  "1. not a list",
  "1) nor this",
  "2024. A year",
  "- dash",
  "+ plus",
  "* star",
  "> not a quote",
  "***",
  "---",
  "===",
  "~~~",
  "```",
  "| a | b |",
  "a *b* _c_ **d** __e__ snake_case_name",
  "[link](https://x.test/) and ![img](y.png) and [^1]",
  "<div>html</div> <b>bold</b> <!-- comment -->",
  "&amp; &copy; &#169; &#x41;",
  "`code` and ``more``",
  "~~struck~~",
  "back\\slash\\ and \\*",
  "<https://autolink.test> mail@example.test",
  "Issue #",
  "trailing ##",
  "C# and F#",
  "a_b_ _c",
  "!important [x]: /url",
];

const escapeHtml = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
const parser = new MarkdownIt();

/** The elements by tag, the text and title of the first `tag`, once parsed back. */
function roundTrip(html: string, tag: string): { text: string; title: string; tags: string[] } {
  const markdown = renderMarkdown(parseHtml(html), { baseUrl: "https://ex.test/" }).markdown;
  const back = parseHtml(parser.render(markdown));
  const tags = selectAll(back, "*").map((el) => el.name);
  const first = selectAll(back, tag)[0];
  return {
    text: first ? collapse(textOf(first)) : "",
    title: first?.attribs.title ?? "",
    tags,
  };
}

Deno.test("text that looks like Markdown stays text, in its one element", async (t) => {
  for (const text of HOSTILE) {
    await t.step(text, () => {
      const p = roundTrip(`<p>${escapeHtml(text)}</p>`, "p");
      assert.deepEqual(p.tags, ["p"], `paragraph: ${text}`);
      assert.equal(p.text, collapse(text));

      const h = roundTrip(`<h2>${escapeHtml(text)}</h2>`, "h2");
      assert.deepEqual(h.tags, ["h2"], `heading: ${text}`);
      assert.equal(h.text, collapse(text));

      const li = roundTrip(`<ul><li>${escapeHtml(text)}</li><li>x</li></ul>`, "li");
      assert.deepEqual(li.tags, ["ul", "li", "li"], `list item: ${text}`);
      assert.equal(li.text, collapse(text));

      const cell = roundTrip(
        `<table><tr><th>h</th><th>i</th></tr><tr><td>${
          escapeHtml(text)
        }</td><td>y</td></tr></table>`,
        "td",
      );
      assert.equal(cell.text, collapse(text), `cell: ${text}`);
      assert.equal(cell.tags.filter((tag) => tag === "td").length, 2, `cell: ${text}`);

      const link = roundTrip(
        `<p><a href="/p" title="${escapeHtml(text).replaceAll('"', "&quot;")}">${
          escapeHtml(text)
        }</a></p>`,
        "a",
      );
      assert.equal(link.text, collapse(text), `link: ${text}`);
      assert.equal(link.title, collapse(text), `link title: ${text}`);

      assert.ok(link.tags.includes("a"), `link: ${text}`);
    });
  }
});
