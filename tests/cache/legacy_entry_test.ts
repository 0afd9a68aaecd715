/**
 * Cache entries written before entries recorded their payload's length (`size`): one cut short
 * was served (a broken JSON text) until it expired. Now such an entry is whole only if its JSON
 * text parses (an object's text cut short never does): else a miss, recomputed and written
 * again with its length; a whole one is still a hit, and written again with its length.
 */
import assert from "node:assert/strict";
import { Redis } from "ioredis";
import { cached } from "../../lib/cache/cached.ts";
import { decodeEntry, type Entry, type StoredEntry } from "../../lib/cache/entry.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { openStore } from "../../lib/store/mod.ts";
import type { Store } from "../../lib/store/types.ts";
import { startRedis } from "../store/_redis.ts";
import { tempStore } from "../store/_temp_store.ts";

// The damage warnings would drown the test report.
setQuiet(true);

const encoder = new TextEncoder();
const PAYLOAD = JSON.stringify({ status: "success", data: { title: "Légende ✓", list: [1, 2] } });
const PAYLOAD_BYTES = encoder.encode(PAYLOAD).length;

/** An entry as encodeEntry wrote it before it recorded the payload's length (no `size`). */
function legacyEntry(stored: StoredEntry): Uint8Array {
  const entry = stored.entry;
  const body = entry === null
    ? new Uint8Array()
    : typeof entry.payload === "string"
    ? encoder.encode(entry.payload)
    : entry.payload;
  const head = encoder.encode(JSON.stringify({
    v: 2,
    fetchMode: entry?.fetchMode ?? "skipped",
    fetchTimeMs: entry?.fetchTimeMs ?? 0,
    createdAt: stored.createdAt,
    ttlMs: stored.ttlMs,
    text: typeof entry?.payload === "string",
    error: stored.error,
  }));
  const bytes = new Uint8Array(4 + head.length + body.length);
  new DataView(bytes.buffer).setUint32(0, head.length);
  bytes.set(head, 4);
  bytes.set(body, 4 + head.length);
  return bytes;
}

const answer = (payload: Entry["payload"], createdAt = 1): StoredEntry => ({
  entry: { payload, fetchMode: "fetch", fetchTimeMs: 3, createdAt },
  error: null,
  createdAt,
  ttlMs: 60_000,
});

Deno.test("a legacy entry is whole when its JSON text parses, else a miss", () => {
  const bytes = legacyEntry(answer(PAYLOAD));
  assert.deepEqual(decodeEntry(bytes), { ...answer(PAYLOAD), unsized: true }, "whole");
  // Cut anywhere in the payload, even inside a character or right before the last brace.
  const payloadStart = bytes.length - encoder.encode(PAYLOAD).length;
  for (let end = payloadStart; end < bytes.length; end++) {
    assert.equal(decodeEntry(bytes.subarray(0, end)), null, `cut at ${end - payloadStart}`);
  }
  const error = {
    entry: null,
    error: { code: "ETIMEOUT" as const, message: "slow", headers: {} },
    createdAt: 1,
    ttlMs: 60_000,
  };
  assert.deepEqual(decodeEntry(legacyEntry(error)), { ...error, unsized: true }, "no payload");
  assert.equal(decodeEntry(legacyEntry(answer(new Uint8Array([1, 2])))), null, "bytes: unknown");
});

/** The payload length recorded in the meta of the store's entry under `key`. */
async function storedSize(store: Store, key: string): Promise<unknown> {
  const bytes = (await store.getCache(key))!;
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))).size;
}

async function checkStore(store: Store): Promise<void> {
  let runs = 0;
  const compute = () => {
    runs++;
    return Promise.resolve({ payload: PAYLOAD, fetchMode: "fetch" as const, fetchTimeMs: 3 });
  };
  const options = (key: string) => ({ store, key, ttlMs: 60_000, compute });
  const now = Date.now();
  const whole = legacyEntry(answer(PAYLOAD, now));
  const cut = whole.subarray(0, whole.length - 1);
  await store.setCache("legacywhole", { value: whole, ttlMs: 60_000 });
  await store.setCache("legacycut", { value: cut, ttlMs: 60_000 });

  const hit = await cached(options("legacywhole"));
  assert.equal(hit.status, "HIT", "a whole legacy entry is still served");
  assert.equal(hit.entry.payload, PAYLOAD);
  assert.equal(hit.entry.createdAt, now);
  assert.equal(await storedSize(store, "legacywhole"), PAYLOAD_BYTES, "written with its length");
  const rewritten = await cached(options("legacywhole"));
  assert.equal(rewritten.status, "HIT");
  assert.equal(rewritten.entry.createdAt, now, "the same answer, as old as it was");

  const missed = await cached(options("legacycut"));
  assert.equal(missed.status, "MISS", "a legacy entry cut short is recomputed");
  assert.equal(missed.entry.payload, PAYLOAD);
  assert.equal(runs, 1);
  assert.equal(await storedSize(store, "legacycut"), PAYLOAD_BYTES);
  const again = await cached(options("legacycut"));
  assert.equal(again.status, "HIT", "written again with its length");
  assert.equal(runs, 1);
}

Deno.test("the embedded store: a legacy entry cut short is recomputed, a whole one a hit", async () => {
  await using store = await tempStore();
  await checkStore(store);
});

Deno.test("Redis: a legacy entry cut short is recomputed, a whole one a hit", async () => {
  await using redis = await startRedis();
  const store = await openStore({ redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 });
  const admin = new Redis(redis.url);
  try {
    await checkStore(store);
    // Made 40 s ago to live a minute: written again, it still goes in 20 s.
    const old = legacyEntry({ ...answer(PAYLOAD, Date.now() - 40_000), ttlMs: 60_000 });
    await store.setCache("legacyold", { value: old, ttlMs: 20_000 });
    const hit = await cached({
      store,
      key: "legacyold",
      ttlMs: 60_000,
      compute: () => Promise.reject(new Error("a hit computes nothing")),
    });
    assert.equal(hit.status, "HIT");
    assert.equal(await storedSize(store, "legacyold"), PAYLOAD_BYTES);
    const left = await admin.pttl("lp:cache:legacyold");
    assert.ok(left > 0 && left <= 20_000, `expires in ${left} ms`);
  } finally {
    admin.disconnect();
    await store.close();
  }
});
