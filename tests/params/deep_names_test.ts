/**
 * Dotted names nested thousands deep are refused as EINVALQUERY before any walk over the query
 * tree recurses into them (a stack overflow answered 500 EFATAL before).
 */
import assert from "node:assert/strict";
import { q, testApp, testConfig } from "../_fixtures.ts";
import { parseParams } from "../../lib/params/mod.ts";

const URL_ = "https://example.invalid/";
/** Dotted levels a name may have (the query tree's bound). */
const MAX_NAME_DEPTH = 32;
const deep = (prefix: string, levels: number) => prefix + ".a".repeat(levels);

Deno.test("names nested thousands deep answer 400 EINVALQUERY, not 500", async (t) => {
  await using app = await testApp(testConfig());
  for (const prefix of ["data", "data.price.attr", "headers", "screenshot", "unknownName"]) {
    for (const levels of [MAX_NAME_DEPTH, 5_000, 50_000]) {
      await t.step(`${prefix} + ${levels} levels`, async () => {
        const { status, body } = await app.json(q(URL_, `&${deep(prefix, levels)}=1`));
        assert.equal(status, 400, JSON.stringify(body).slice(0, 300));
        assert.equal(body.code, "EINVALQUERY");
        assert.match(body.message, /nests too deep \(\d+ dotted levels, at most 32\)/);
        assert.ok(body.message.length < 200, "the message names the start of the name only");
      });
    }
  }
});

Deno.test("the deepest real names still parse: five levels of nested rules", () => {
  const path = "data.a.0.attr.b.0.attr.c.0.attr.d.0.attr.e.0.selector.1";
  assert.ok(path.split(".").length <= MAX_NAME_DEPTH);
  const params = parseParams(
    new URLSearchParams(`url=${URL_}&${path}=h1&${path.replace(/1$/, "0")}=h2`),
    { maxTimeoutMs: 28_000 },
  );
  const e = JSON.stringify(params.data).match(/"e":\[\{"selector":\["h2","h1"\]\}\]/);
  assert.ok(e, JSON.stringify(params.data));
});
