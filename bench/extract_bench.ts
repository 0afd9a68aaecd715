/**
 * `deno task bench:micro`: the costs the extraction code quotes. lib/extract/stream/collect.ts: the
 * streaming pass is cheaper than building a tree. lib/extract/dom/workers.ts: the cost a
 * character of the worst pages at EXTRACT_THRESHOLD (64 KB), the size above which extraction
 * leaves the main thread. And the markdown view of a 2 MB article
 * (tests/extract/markdown_test.ts checks its result; this times it).
 */
import { collect } from "../lib/extract/stream/collect.ts";
import { parseHtml } from "../lib/extract/dom/mod.ts";
import { EXTRACT_THRESHOLD } from "../lib/extract/dom/workers.ts";
import { documentToMarkdown } from "../lib/extract/content/markdown.ts";
import { extract } from "../lib/extract/mod.ts";

/** Unclosed, misnested tags and attributes: the parser's worst ordinary input. */
function tagSoup(chars: number): string {
  const unit = `<div class="a b"><p>text <b>bold <i>both</p></b> and <a href="/x?y=1">link` +
    `</div><span data-x='1'>more <img src="/i.png" alt="pic"><br>\n`;
  return `<html><head><title>Soup</title></head><body>` +
    unit.repeat(Math.ceil(chars / unit.length)) + `</body></html>`;
}

const soup = tagSoup(EXTRACT_THRESHOLD);
const article = Deno.readTextFileSync(
  new URL("../tests/fixtures/markdown/article.html", import.meta.url),
).replace(/^<!-- deno-fmt-ignore-file -->\n/, "");
const chunk = article.slice(
  article.indexOf("<h2>Why caches work</h2>"),
  article.indexOf("<hr>"),
);
const big = article.replace(
  "<hr>",
  chunk.repeat(Math.ceil(2_000_000 / chunk.length)) + "<hr>",
);

Deno.bench(`collect() ${soup.length} chars of tag soup`, {
  group: "soup",
  baseline: true,
}, () => {
  collect(soup);
});
Deno.bench(`parseHtml() the same (a tree)`, { group: "soup" }, () => {
  parseHtml(soup);
});
Deno.bench(
  `extract() the same (every default field)`,
  { group: "soup" },
  () => {
    extract(soup, "https://example.com/");
  },
);
// The worst page the main thread still reads (tests/api/event_loop_test.ts's /deep-inline).
const deep = "<i>".repeat(EXTRACT_THRESHOLD / 3);
Deno.bench(
  `extract() ${deep.length} chars of nested <i>`,
  { group: "soup" },
  () => {
    extract(deep, "https://example.com/");
  },
);

Deno.bench(`collect() a ${(big.length / 1e6).toFixed(1)} MB article`, {
  group: "article",
  baseline: true,
  n: 10,
}, () => {
  collect(big);
});
Deno.bench(`parseHtml() the same (a tree)`, { group: "article", n: 10 }, () => {
  parseHtml(big);
});

Deno.bench(`markdown of a ${(big.length / 1e6).toFixed(1)} MB article`, {
  n: 5,
}, () => {
  documentToMarkdown(parseHtml(big), "https://journal.example/x");
});
