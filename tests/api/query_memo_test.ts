/**
 * The memo of checked queries (memo.prepared) keeps only short queries: a checked query holds
 * many times its own size, and a query is checked before the daily count refuses anything.
 */
import assert from "node:assert/strict";
import { MAX_KEPT_QUERY_CHARS } from "../../lib/api/memo.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

Deno.test("a short query's checked form is kept, a long one's is not, both answered alike", async () => {
  await using site = serve({ "/": () => html("<title>T</title><h1 class=a>Head</h1>") });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const kept = app.handler.services.memo.prepared;
  const short = q(`${site.origin}/`, "&ping=false&data.h.selector=h1");
  const first = await app.json(short);
  assert.equal(first.body.data.h, "Head");
  assert.equal(kept.size, 1);

  // The same rule, behind 100 fallback selectors that match nothing: a 3 KB query.
  const misses = Array.from({ length: 100 }, (_, i) => `section.missing-${i}>h1`).join(",");
  const long = q(`${site.origin}/`, `&ping=false&data.h.selector=${misses},h1`);
  assert.ok(long.length > MAX_KEPT_QUERY_CHARS);
  for (let i = 0; i < 2; i++) {
    const answer = await app.json(long);
    assert.equal(answer.body.data.h, "Head");
  }
  assert.equal(kept.size, 1, "the long query is checked again each time, never kept");
});
