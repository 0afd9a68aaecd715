/**
 * Names that come from a page, a target or a query (`constructor`, `__proto__`, `toString`)
 * are looked up among own keys only: a table's inherited members are never a value.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { toLang } from "../../lib/extract/fields/lang_codes.ts";
import { documentToMarkdown } from "../../lib/extract/content/markdown.ts";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { typeFromContentType } from "../../lib/media/sniff.ts";
import { parseDuration } from "../../lib/params/duration.ts";
import { parseParams } from "../../lib/params/mod.ts";
import { validateRules } from "../../lib/extract/custom/rules.ts";

const INHERITED = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"];

Deno.test("table lookups of page and query words see own entries only", async (t) => {
  await t.step("toLang()", () => {
    for (const name of INHERITED) assert.equal(toLang(name), null, name);
  });
  await t.step("typeFromContentType()", () => {
    for (const name of INHERITED) assert.equal(typeFromContentType(name), null, name);
  });
  await t.step("parseDuration()", () => {
    for (const name of INHERITED) assert.equal(parseDuration(`1${name}`), null, name);
  });
  await t.step("markdown table alignment", () => {
    const markdown = documentToMarkdown(
      parseHtml(
        `<table><tr><th align="constructor">a</th><th style="text-align:toString">b</th></tr>` +
          `<tr><td>1</td><td>2</td></tr></table>`,
      ),
      "http://example.invalid/",
    );
    assert.equal(markdown, "| a | b |\n| --- | --- |\n| 1 | 2 |");
  });
  await t.step("a query's data.__proto__ is a refused rule name, not a prototype", () => {
    const { data } = parseParams(
      new URLSearchParams("url=http://a.invalid/&data.__proto__.selector=h1"),
      { maxTimeoutMs: 28_000 },
    );
    assert.throws(() => validateRules(data), /`data.__proto__` is not allowed/);
  });
});

Deno.test("a page or target naming inherited members gets plain values back", async (t) => {
  await using site = serve({
    "/": () =>
      html(`<html lang="constructor"><title>t</title><p id="p">text</p>`, {
        headers: { "constructor": "c", "tostring": "s", "x-same": "1" },
      }),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { status, body } = await app.json(
    q(`${site.origin}/`, "&ping=false&data.p.selector=%23p&data.p.attr=constructor"),
  );
  assert.equal(status, 200, JSON.stringify(body));
  await t.step("response headers named like Object members are the target's values", () => {
    assert.equal(body.headers.constructor, "c");
    assert.equal(body.headers.tostring, "s");
  });
  await t.step("<html lang=constructor> is no language, and the field is still there", () => {
    assert.ok(Object.hasOwn(body.data, "lang"));
    assert.equal(body.data.lang, null);
  });
  await t.step("a custom rule reading attribute `constructor` finds none", () => {
    assert.ok(Object.hasOwn(body.data, "p"));
    assert.equal(body.data.p, null);
  });
  await t.step("ttl=1constructor is EINVALTTL", async () => {
    const refused = await app.json(q(`${site.origin}/`, "&ttl=1constructor"));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, "EINVALTTL");
    assert.match(refused.body.message, /`ttl`/);
  });
});
