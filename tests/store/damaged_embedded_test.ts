/**
 * Values in the embedded store's state.kv that Deno KV cannot read back (their bytes damaged on
 * disk, here by writing the SQLite rows directly) are handled as in Redis: a cache entry is a
 * miss, a counter starts again, the server secret is made anew, a key record is EUNAVAILABLE
 * naming it; never an unexpected error (a 500 on every request that reads them).
 */
import assert from "node:assert/strict";
import { EmbeddedStore } from "../../lib/store/embedded.ts";
import { createKey } from "../../lib/plans/mod.ts";
import { isApiError } from "../../lib/util/errors.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { damageValues, kvKey } from "./_kv_damage.ts";

// The damage warnings would drown the test report.
setQuiet(true);

const damagedNaming = (record: RegExp) => (error: unknown) =>
  isApiError(error) && error.code === "EUNAVAILABLE" && record.test(error.message);

Deno.test("EmbeddedStore reads damaged KV values as a miss, a new count, or EUNAVAILABLE", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-damaged-" });
  try {
    let store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    await store.setCache("entry", { value: new Uint8Array([1, 2, 3]), ttlMs: 60_000 });
    const day = Date.now() + 60_000;
    await store.increment("ip:1", day);
    await store.increment("ip:1", day);
    const { record } = await createKey(store, { name: "ci" });
    const secret = await store.serverSecret();
    await store.close();

    damageValues(dataDir, [
      kvKey("blobdata", "cache", "entry"),
      kvKey("count", "ip:1"),
      kvKey("key", record.id),
      kvKey("secret"),
    ]);

    store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    try {
      assert.equal(await store.getCache("entry"), null, "a damaged cache entry is a miss");
      assert.equal(store.blobBytes, 0, "and leaves the budget");
      await store.setCache("entry", { value: new Uint8Array([4]), ttlMs: 60_000 });
      assert.deepEqual(await store.getCache("entry"), new Uint8Array([4]));

      assert.equal(await store.increment("ip:1", day), 1, "a damaged counter starts again");

      const named = damagedNaming(new RegExp(`"key","${record.id}"`));
      await assert.rejects(store.findKeyById(record.id), named);
      await assert.rejects(store.findKeyByHash(record.hash), named);
      await assert.rejects(store.listKeys(), damagedNaming(/"key"/));

      const fresh = await store.serverSecret();
      assert.equal(fresh.byteLength, 32, "a damaged server secret is made anew");
      assert.notDeepEqual(fresh, secret);
    } finally {
      await store.close();
    }
    store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    try {
      assert.equal(await store.increment("ip:1", day), 2, "the new count was written");
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
