/** The first answer of an error says MISS (or BYPASS with force), like any computed answer. */
import assert from "node:assert/strict";
import { cached } from "../../lib/cache/cached.ts";
import { ApiError, isApiError } from "../../lib/util/errors.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { freePort } from "../ops/_main_process.ts";
import { q, testApp, testConfig } from "../_fixtures.ts";
import { tempStore } from "../store/_temp_store.ts";

setQuiet(true);

Deno.test("cached() marks a computed error MISS or BYPASS, with how long it stays cached", async () => {
  await using store = await tempStore();
  const rejectWith = (error: ApiError) => () => Promise.reject(error);
  const failure = (promise: Promise<unknown>) =>
    promise.then(() => assert.fail("resolved"), (error: unknown) => {
      assert.ok(isApiError(error));
      return error;
    });
  const fetchFailed = new ApiError("EFETCH", "refused");
  const base = { store, ttlMs: 30_000, compute: rejectWith(fetchFailed) };

  const first = await failure(cached({ ...base, key: "e".repeat(64) }));
  assert.equal(first.code, "EFETCH");
  assert.equal(first.headers["x-cache-status"], "MISS");
  assert.equal(first.headers["x-cache-ttl"], "30000", "cached for min(1 min, ttl)");
  assert.equal(first.cause, fetchFailed);
  const second = await failure(cached({ ...base, key: "e".repeat(64) }));
  assert.equal(second.headers["x-cache-status"], "HIT");

  const forced = await failure(cached({ ...base, key: "f".repeat(64), force: true }));
  assert.equal(forced.headers["x-cache-status"], "BYPASS");

  const browser = await failure(
    cached({ ...base, key: "g".repeat(64), compute: rejectWith(new ApiError("EBROWSER", "x")) }),
  );
  assert.deepEqual(
    [browser.headers["x-cache-status"], browser.headers["x-cache-ttl"]],
    ["MISS", "0"],
  );
  assert.deepEqual(fetchFailed.headers, {}, "the computed error itself is left as it was");
});

Deno.test("the first answer of a cacheable target error says x-cache-status: MISS", async () => {
  const port = freePort(); // nothing listens there: the connection is refused
  await using app = await testApp(testConfig({ trustPorts: [port] }));
  const query = q(`http://127.0.0.1:${port}/`, "&ping=false");
  const first = await app.json(query);
  assert.equal(first.body.code, "EFETCH");
  assert.equal(first.headers.get("x-cache-status"), "MISS");
  assert.equal(first.headers.get("x-cache-ttl"), "60000");
  const second = await app.json(query);
  assert.equal(second.body.code, "EFETCH");
  assert.equal(second.headers.get("x-cache-status"), "HIT");
});
