/**
 * Embedded blobs on a disk that misbehaves: a file cut short (a crash between write and
 * flush, a full disk) and a write that fails half-way must neither be served nor pile up.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { EmbeddedStore } from "../../lib/store/embedded.ts";

/** Bigger than a KV value: stored as a file under blobs/. */
const LARGE = 100 * 1024;

async function withDataDir(run: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-blobfaults-" });
  try {
    await run(dataDir);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

const asset = (bytes: Uint8Array) => ({
  bytes,
  contentType: "image/png",
  private: false,
  ttlMs: 60_000,
});

Deno.test("EmbeddedStore never serves a blob file cut short: it is a miss, and goes", async () => {
  await withDataDir(async (dataDir) => {
    const bytes = new Uint8Array(LARGE).fill(7);
    let store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    await store.putAsset("cut", asset(bytes));
    await store.setCache("cutcache", { value: bytes, ttlMs: 60_000 });
    await store.close();
    for (const name of ["asset/cut", "cache/cutcache"]) {
      await Deno.truncate(join(dataDir, "blobs", name), LARGE / 2);
    }

    store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    try {
      // Sizes, not the values: a diff of 100 KiB arrays takes minutes to print.
      assert.equal((await store.getAsset("cut"))?.bytes.byteLength ?? null, null);
      assert.equal((await store.getCache("cutcache"))?.byteLength ?? null, null);
      assert.equal(store.blobBytes, 0, "the cut blobs leave the budget");
      // Written again, it is served whole.
      await store.putAsset("cut", asset(bytes));
      const again = (await store.getAsset("cut"))?.bytes;
      assert.ok(again && again.byteLength === LARGE && again.every((b) => b === 7));
    } finally {
      await store.close();
    }
  });
});

Deno.test("EmbeddedStore leaves no temporary file behind when writing a blob fails", async () => {
  await withDataDir(async (dataDir) => {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    try {
      await store.putAsset("first", asset(new Uint8Array(LARGE)));
      // A directory where the blob's file goes: the write fails as on a full disk, late.
      await Deno.mkdir(join(dataDir, "blobs", "asset", "blocked", "inside"), { recursive: true });
      await assert.rejects(store.putAsset("blocked", asset(new Uint8Array(LARGE))));
      const names = [...Deno.readDirSync(join(dataDir, "blobs", "asset"))].map((e) => e.name);
      assert.deepEqual(names.sort(), ["blocked", "first"], "no .tmp file is left");
      assert.equal((await store.getAsset("blocked"))?.bytes.byteLength ?? null, null);
    } finally {
      await store.close();
    }
  });
});

Deno.test("EmbeddedStore refuses an asset over CACHE_MAX_BYTES instead of dropping it", async () => {
  await withDataDir(async (dataDir) => {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    try {
      // Accepted and dropped, its URL would be handed out and answer 404.
      await assert.rejects(
        store.putAsset("huge", asset(new Uint8Array(2 * 1024 * 1024))),
        /CACHE_MAX_BYTES/,
      );
      assert.equal((await store.getAsset("huge"))?.bytes.byteLength ?? null, null);
    } finally {
      await store.close();
    }
  });
});

Deno.test("EmbeddedStore bounds how many tiny blobs it keeps, not only their bytes", async () => {
  await withDataDir(async (dataDir) => {
    // 2 MiB: room for 20,000 blobs of 100 bytes, but at most 2,048 entries (1 KiB each).
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 2 * 1024 * 1024 });
    const count = 3000;
    const key = (i: number) => `tiny${i}`;
    try {
      for (let i = 0; i < count; i++) {
        await store.setCache(key(i), { value: new Uint8Array(100).fill(i % 256), ttlMs: 60_000 });
      }
      let kept = 0;
      for (let i = 0; i < count; i++) if (await store.getCache(key(i))) kept++;
      assert.equal(kept, 2048, "each entry costs memory and KV rows beside its bytes");
      assert.ok(await store.getCache(key(count - 1)), "the newest are kept");
      assert.equal(await store.getCache(key(0)), null, "the oldest went first");
    } finally {
      await store.close();
    }
  });
});
