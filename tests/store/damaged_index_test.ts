/**
 * The embedded cache's index entries (loaded from state.kv at start) whose bytes KV cannot read
 * back: Deno KV's list then fails as a whole, naming no key, and the store refused to open. Now
 * each such entry is dropped (a miss, with its bytes), the rest of the cache and the other state
 * kept; only a state.kv SQLite itself cannot read refuses, naming DATA_DIR.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EmbeddedStore } from "../../lib/store/embedded.ts";
import { createKey } from "../../lib/plans/mod.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { damageKvTable, damageValues, kvKey } from "./_kv_damage.ts";

// The damage warnings would drown the test report.
setQuiet(true);

const MAX_BYTES = 4 * 1024 * 1024;
/** Bigger than a KV value: stored as a file under blobs/. */
const LARGE = 100 * 1024;

/** A cache key as the service makes them: 64 hex characters. */
function cacheId(n: number): string {
  return n.toString(16).padStart(64, "0");
}

async function withDataDir(run: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-damaged-index-" });
  try {
    await run(dataDir);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("EmbeddedStore opens past index entries KV cannot read back and drops only them", async () => {
  await withDataDir(async (dataDir) => {
    // More entries than one KV list batch (100), so that damage sits in a later batch too.
    const ids = Array.from({ length: 250 }, (_, n) => cacheId(n));
    const large = cacheId(1000);
    let store = await EmbeddedStore.open({ dataDir, maxBytes: MAX_BYTES });
    for (const [n, id] of ids.entries()) {
      await store.setCache(id, { value: new Uint8Array([n % 256, 1, 2]), ttlMs: 60_000 });
    }
    await store.setCache(large, { value: new Uint8Array(LARGE).fill(9), ttlMs: 60_000 });
    await store.putAsset("shot", {
      bytes: new Uint8Array([7, 7]),
      contentType: "image/png",
      private: false,
      ttlMs: 60_000,
    });
    const { record } = await createKey(store, { name: "ci" });
    const day = Date.now() + 60_000;
    await store.increment("ip:1", day);
    const secret = await store.serverSecret();
    await store.close();

    // The first and last entries, two neighbours in a later batch, and a file blob's entry.
    const damaged = [ids[0]!, ids[150]!, ids[151]!, ids[249]!, large];
    damageValues(dataDir, damaged.map((id) => kvKey("blob", "cache", id)));

    store = await EmbeddedStore.open({ dataDir, maxBytes: MAX_BYTES });
    try {
      for (const id of damaged) {
        assert.equal((await store.getCache(id))?.byteLength ?? null, null, `${id} is a miss`);
      }
      for (const [n, id] of ids.entries()) {
        if (damaged.includes(id)) continue;
        assert.deepEqual(await store.getCache(id), new Uint8Array([n % 256, 1, 2]), id);
      }
      assert.equal(store.blobBytes, (ids.length - 4) * 3 + 2, "the dropped bytes leave the budget");
      assert.ok(!await exists(join(dataDir, "blobs", "cache", large)), "a dropped file goes");
      assert.deepEqual((await store.getAsset("shot"))?.bytes, new Uint8Array([7, 7]));
      assert.deepEqual(await store.findKeyById(record.id), record, "keys untouched");
      assert.equal(await store.increment("ip:1", day), 2, "counters untouched");
      assert.deepEqual(await store.serverSecret(), secret, "the secret untouched");
      // The next computation writes it again.
      await store.setCache(ids[150]!, { value: new Uint8Array([5]), ttlMs: 60_000 });
    } finally {
      await store.close();
    }

    store = await EmbeddedStore.open({ dataDir, maxBytes: MAX_BYTES });
    try {
      assert.deepEqual(await store.getCache(ids[150]!), new Uint8Array([5]), "rewritten, kept");
      assert.equal(store.blobBytes, (ids.length - 4) * 3 + 2 + 1);
    } finally {
      await store.close();
    }
  });
});

Deno.test("EmbeddedStore refuses a state.kv SQLite cannot read, naming DATA_DIR", async () => {
  await withDataDir(async (dataDir) => {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: MAX_BYTES });
    await store.setCache(cacheId(1), { value: new Uint8Array([1]), ttlMs: 60_000 });
    await store.close();
    await damageKvTable(dataDir);
    await assert.rejects(
      EmbeddedStore.open({ dataDir, maxBytes: MAX_BYTES }),
      (error: Error) => error.message.startsWith(`DATA_DIR "${dataDir}" cannot hold the state: `),
    );
  });
});
