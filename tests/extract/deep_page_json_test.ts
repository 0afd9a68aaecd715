/**
 * JSON a page carries (JSON-LD, a `json` rule's element) nested hundreds of thousands deep reads
 * as not JSON: the request answers 200, where a stack overflow (structured clone to the DOM
 * worker, the JSON-LD walk) answered 500 EFATAL before. 256 levels still read.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { EXTRACT_THRESHOLD } from "../../lib/extract/dom/workers.ts";

const nestedArray = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const nestedObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
/** Pages this large are read in a DOM worker, smaller ones on the main thread: both paths. */
const PADDING = { small: "", large: "<p>padding</p>".repeat(EXTRACT_THRESHOLD / 10) };

Deno.test("deeply nested page JSON answers 200, not 500", async (t) => {
  const page = (head: string, body: string) => (size: keyof typeof PADDING) =>
    html(`<title>Deep</title>${head}${PADDING[size]}${body}`);
  const pages = {
    jsonld: page(`<script type="application/ld+json">${nestedArray(400_000)}</script>`, ""),
    jsonldAuthor: page(
      `<script type="application/ld+json">{"@type":"Article","author":${
        nestedObject(100_000)
      }}</script>`,
      "",
    ),
    rule: page("", `<script id="j" type="application/json">${nestedArray(400_000)}</script>`),
    ruleAtBound: page("", `<script id="j" type="application/json">${nestedArray(256)}</script>`),
  };
  await using site = serve(
    Object.fromEntries(
      Object.entries(pages).flatMap(([name, make]) => [
        [`/${name}/small`, () => make("small")],
        [`/${name}/large`, () => make("large")],
      ]),
    ),
  );
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const rule = "&data.x.selector=%23j&data.x.attr=json";
  for (const size of ["small", "large"]) {
    await t.step(`JSON-LD 400,000 levels deep (${size} page)`, async () => {
      for (const name of ["jsonld", "jsonldAuthor"]) {
        const { status, body } = await app.json(q(`${site.origin}/${name}/${size}`, "&ping=false"));
        assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
        assert.equal(body.data.title, "Deep");
      }
    });
    await t.step(`a json rule over 400,000 levels reads null (${size} page)`, async () => {
      const { status, body } = await app.json(
        q(`${site.origin}/rule/${size}`, `&ping=false${rule}`),
      );
      assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
      assert.equal(body.data.x, null);
    });
    await t.step(`a json rule over 256 levels reads the value (${size} page)`, async () => {
      const { status, body } = await app.json(
        q(`${site.origin}/ruleAtBound/${size}`, `&ping=false${rule}`),
      );
      assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
      assert.equal(JSON.stringify(body.data.x), nestedArray(256));
    });
  }
});
