/**
 * Cache entries against a clock that moved: an entry stamped later than now (written by an
 * instance whose clock ran ahead, or before this clock was set back) must not live for its
 * ttl plus however far the clock was wrong.
 */
import assert from "node:assert/strict";
import { cached } from "../../lib/cache/cached.ts";
import { encodeEntry } from "../../lib/cache/entry.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { tempStore } from "../store/_temp_store.ts";

setQuiet(true);

const HOUR = 3_600_000;
const KEY = "c".repeat(64);

async function answerWithEntryMadeIn(offsetMs: number) {
  await using store = await tempStore();
  const createdAt = Date.now() + offsetMs;
  const entry = { payload: '{"old":true}', fetchMode: "fetch" as const, fetchTimeMs: 1, createdAt };
  await store.setCache(KEY, {
    value: encodeEntry({ entry, error: null, createdAt, ttlMs: HOUR }),
    ttlMs: HOUR,
  });
  let runs = 0;
  const result = await cached({
    store,
    key: KEY,
    ttlMs: HOUR,
    compute: () => {
      runs++;
      return Promise.resolve({ payload: '{"new":true}', fetchMode: "fetch", fetchTimeMs: 1 });
    },
  });
  return { result, runs };
}

Deno.test("an entry stamped a year ahead of this clock is a MISS, not a year-long HIT", async () => {
  const { result, runs } = await answerWithEntryMadeIn(365 * 24 * HOUR);
  assert.equal(result.status, "MISS");
  assert.equal(runs, 1);
  assert.ok(result.ttlLeftMs <= HOUR, `x-cache-ttl ${result.ttlLeftMs} beyond the ttl`);
});

Deno.test("an entry stamped seconds ahead (instances' clocks differ a little) is a HIT", async () => {
  const { result, runs } = await answerWithEntryMadeIn(5_000);
  assert.equal(result.status, "HIT");
  assert.equal(runs, 0);
  assert.ok(result.ttlLeftMs <= HOUR, `x-cache-ttl ${result.ttlLeftMs} beyond the ttl`);
});
