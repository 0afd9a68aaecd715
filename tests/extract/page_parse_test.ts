/**
 * One parse for the default fields and the DOM work (DomWork.fields): the fields are those
 * extract() reads alone, and the DOM work's answer is the one it gives without them, also on a
 * page past the DOM's node cap and on the worker pool.
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { extract } from "../../lib/extract/mod.ts";
import { type DomWork, domWorkSync, WORKER_THRESHOLD } from "../../lib/extract/dom/work.ts";
import { DomWorkers } from "../../lib/extract/dom/workers.ts";
import { MAX_DOM_NODES } from "../../lib/extract/stream/html_parser.ts";

const PAGES = new URL("../fixtures/content/pages/", import.meta.url);
const URL_ = "https://page.invalid/story";

function pages(): { name: string; html: string }[] {
  const out = [];
  for (const entry of Deno.readDirSync(PAGES)) {
    const bytes = gunzipSync(Deno.readFileSync(new URL(entry.name, PAGES)));
    out.push({ name: entry.name, html: new TextDecoder().decode(bytes) });
  }
  return out;
}

const work = (html: string): DomWork => ({
  html,
  url: URL_,
  rules: { heading: [{ selector: ["h1"], attr: ["text"] }] },
  markdown: true,
  text: true,
});

Deno.test("the fields read with the DOM equal extract()'s, the DOM work its own answer", () => {
  const all = pages();
  assert.ok(all.length >= 10);
  for (const { name, html } of all) {
    const together = domWorkSync({ ...work(html), fields: {} });
    const alone = domWorkSync(work(html));
    assert.deepEqual(together.extracted, extract(html, URL_), name);
    assert.deepEqual({ ...together, extracted: null }, alone, name);
    assert.equal(alone.extracted, null);
  }
});

Deno.test("links resolve alike with and without the fields' parse, whatever the <base>", () => {
  // With the fields, a page whose record holds no <base href> skips the DOM's base lookup.
  const story = '<p>Read <a href="next">the next part</a> of a story long enough to keep.</p>';
  const heads = [
    "",
    '<base target="_blank">',
    '<base href="https://other.invalid/dir/">',
    '<base href=""><base href="https://other.invalid/dir/">',
    '<base href="javascript:void(0)">',
  ];
  const bodies = [story, `<base href="https://late.invalid/">${story}`];
  for (const head of heads) {
    for (const body of bodies) {
      const html = `<html><head>${head}<title>T</title></head><body>${body}</body></html>`;
      const page = { html, url: URL_, rules: null, markdown: true };
      const together = domWorkSync({ ...page, fields: {} }).markdown;
      assert.equal(together, domWorkSync(page).markdown, html);
      assert.match(together!, /\(https:\/\/[^)]+\/next\)/, html);
    }
  }
});

Deno.test("past the DOM's node cap, the fields still read the whole page", () => {
  const html = "<i>a</i>".repeat(MAX_DOM_NODES) +
    '<meta property="og:title" content="Read at the end">';
  const late = { late: [{ selector: ['meta[property="og:title"]'], attr: ["content"] }] };
  const { extracted, custom } = domWorkSync({
    html,
    url: URL_,
    rules: late,
    markdown: false,
    fields: {},
  });
  assert.equal(extracted?.title, "Read at the end");
  assert.equal(extracted?.title, extract(html, URL_).title);
  // The DOM stopped at the cap: the meta tag came after it.
  assert.equal(custom.late, null);
});

Deno.test("a page over WORKER_THRESHOLD gets its fields from the worker's one parse", async () => {
  await using pool = new DomWorkers({ maxWorkers: 1 });
  const { html } = pages().find((p) => p.html.length > WORKER_THRESHOLD)!;
  const result = await pool.run({ ...work(html), fields: {} });
  assert.deepEqual(result.extracted, extract(html, URL_));
  assert.equal(result.markdown, domWorkSync(work(html)).markdown);
});
