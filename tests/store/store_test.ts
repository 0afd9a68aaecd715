import assert from "node:assert/strict";
import { isApiError } from "../../lib/util/errors.ts";
import { EmbeddedStore } from "../../lib/store/embedded.ts";
import { openStore } from "../../lib/store/mod.ts";
import type { KeyRecord, Store } from "../../lib/store/types.ts";
import { startRedis } from "./_redis.ts";

const MB = 1024 * 1024;

function record(name: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id: crypto.randomUUID().slice(0, 12),
    name,
    hash: Array.from(
      crypto.getRandomValues(new Uint8Array(32)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join(""),
    signingSecret: "c2VjcmV0",
    createdAt: Date.now(),
    dailyLimit: null,
    revokedAt: null,
    ...overrides,
  };
}

/** Waits until the clock is past `epochMs`: the event a ttl test waits for, not a guessed sleep. */
async function untilPast(epochMs: number): Promise<void> {
  while (Date.now() <= epochMs) {
    await new Promise((r) => setTimeout(r, epochMs - Date.now() + 1));
  }
}

/** The behaviour both implementations share, run against each. */
async function storeContract(t: Deno.TestContext, open: () => Promise<Store>) {
  const a = await open();
  const b = await open();
  try {
    await t.step(
      "increment() is atomic: 200 concurrent calls, limit 50 -> exactly 50 allowed",
      async () => {
        const expiresAt = Date.now() + 60_000;
        const values = await Promise.all(
          Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).increment("race", expiresAt)),
        );
        assert.deepEqual(
          [...values].sort((x, y) => x - y),
          Array.from({ length: 200 }, (_, i) => i + 1),
        );
        assert.equal(values.filter((v) => v <= 50).length, 50);
      },
    );

    await t.step("increment() starts again after the window ends", async () => {
      // Long enough for two counts on a loaded machine; then the test waits for its end.
      const end = Date.now() + 500;
      assert.equal(await a.increment("short", end), 1);
      assert.equal(await a.increment("short", end), 2);
      await untilPast(end);
      assert.equal(await a.increment("short", Date.now() + 60_000), 1);
    });

    await t.step(
      "getCache() returns what setCache() stored, across instances, until ttl",
      async () => {
        const big = crypto.getRandomValues(new Uint8Array(64 * 1024));
        const value = new Uint8Array(3 * MB);
        for (let i = 0; i < value.length; i += big.length) value.set(big, i);
        await a.setCache("k1", { value, ttlMs: 60_000 });
        assert.deepEqual(await a.getCache("k1"), value);
        assert.equal(await a.getCache("missing"), null);
        await a.setCache("brief", { value: new Uint8Array([1, 2, 3]), ttlMs: 500 });
        const expired = Date.now() + 500;
        assert.deepEqual(await a.getCache("brief"), new Uint8Array([1, 2, 3]));
        await untilPast(expired);
        assert.equal(await a.getCache("brief"), null);
      },
    );

    await t.step("putAsset() round-trips bytes, content type and the private flag", async () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
      await a.putAsset("shot_1", {
        bytes: png,
        contentType: "image/png",
        private: true,
        ttlMs: 60_000,
      });
      await a.putAsset("shot-2", {
        bytes: png,
        contentType: "image/jpeg",
        private: false,
        ttlMs: 60_000,
      });
      assert.deepEqual(await a.getAsset("shot_1"), {
        bytes: png,
        contentType: "image/png",
        private: true,
      });
      assert.deepEqual(await a.getAsset("shot-2"), {
        bytes: png,
        contentType: "image/jpeg",
        private: false,
      });
      assert.equal(await a.getAsset("nope"), null);
      await assert.rejects(a.getAsset("../etc/passwd"), /Invalid asset id/);
    });

    await t.step(
      "keys: add, find by hash and id, list, refuse a taken name, revoke, re-add",
      async () => {
        const first = record("alice", { dailyLimit: 10 });
        await a.addKey(first);
        assert.deepEqual(await b.findKeyByHash(first.hash), first);
        assert.deepEqual(await b.findKeyById(first.id), first);
        assert.equal(await b.findKeyByHash("0".repeat(64)), null);
        await assert.rejects(b.addKey(record("alice")), /A key named "alice" already exists/);
        assert.equal(await b.revokeKey("alice"), true);
        assert.equal(await b.revokeKey("alice"), false);
        assert.equal(await b.revokeKey("nobody"), false);
        const revoked = await a.findKeyByHash(first.hash);
        assert.ok(revoked && typeof revoked.revokedAt === "number");
        const second = record("alice", { createdAt: first.createdAt + 1 });
        await a.addKey(second);
        const listed = await b.listKeys();
        assert.deepEqual(listed.map((k) => [k.id, k.revokedAt === null]), [[first.id, false], [
          second.id,
          true,
        ]]);
      },
    );

    await t.step("serverSecret() is 32 bytes, the same for every instance", async () => {
      const [sa, sb] = await Promise.all([a.serverSecret(), b.serverSecret()]);
      assert.equal(sa.byteLength, 32);
      assert.deepEqual(sa, sb);
      assert.notDeepEqual(sa, new Uint8Array(32));
    });

    await t.step("health() is ok", async () => {
      assert.equal((await a.health()).ok, true);
    });
  } finally {
    await a.close();
    await b.close();
  }
}

Deno.test("EmbeddedStore", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-store-" });
  try {
    // One process owns a DATA_DIR: both handles are the same instance here.
    const shared = await openStore({ redisUrl: null, dataDir, cacheMaxBytes: 64 * MB });
    let opened = 0;
    await storeContract(t, () => {
      opened++;
      return Promise.resolve(
        opened === 1 ? shared : { ...bindAll(shared), close: () => Promise.resolve() },
      );
    });

    await t.step("everything survives a reopen", async () => {
      const before = await EmbeddedStore.open({ dataDir, maxBytes: 64 * MB });
      const secret = await before.serverSecret();
      assert.equal(await before.increment("persist", Date.now() + 60_000), 1);
      assert.equal(await before.increment("persist", Date.now() + 60_000), 2);
      await before.setCache("persist", { value: new Uint8Array([7]), ttlMs: 60_000 });
      await before.close();

      const after = await EmbeddedStore.open({ dataDir, maxBytes: 64 * MB });
      try {
        assert.equal(await after.increment("persist", Date.now() + 60_000), 3);
        assert.deepEqual(await after.getCache("persist"), new Uint8Array([7]));
        assert.deepEqual(await after.getCache("k1").then((v) => v?.byteLength), 3 * MB);
        assert.deepEqual((await after.getAsset("shot_1"))?.contentType, "image/png");
        assert.deepEqual(await after.serverSecret(), secret);
        assert.deepEqual((await after.listKeys()).map((k) => k.name), ["alice", "alice"]);
      } finally {
        await after.close();
      }
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("EmbeddedStore evicts least recently used blobs beyond maxBytes", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-evict-" });
  try {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 1000 });
    const blob = (n: number) => ({ value: new Uint8Array(400).fill(n), ttlMs: 60_000 });
    // A reopened store orders blobs by creation time in ms: give each its own millisecond, or
    // "one" and "three" may tie and the reopen below may evict either.
    const nextMillisecond = () => {
      const now = Date.now();
      while (Date.now() === now) { /* at most a millisecond */ }
    };
    await store.setCache("one", blob(1));
    nextMillisecond();
    await store.setCache("two", blob(2));
    assert.ok(await store.getCache("one")); // "one" is now the most recently used
    nextMillisecond();
    await store.putAsset("three", {
      bytes: new Uint8Array(400),
      contentType: "image/png",
      private: false,
      ttlMs: 60_000,
    });
    assert.equal(store.blobBytes, 800);
    assert.equal(await store.getCache("two"), null);
    assert.ok(await store.getCache("one"));
    assert.ok(await store.getAsset("three"));
    await store.setCache("huge", { value: new Uint8Array(1001), ttlMs: 60_000 });
    assert.equal(await store.getCache("huge"), null);
    assert.equal(store.blobBytes, 800);
    await store.close();
    assert.deepEqual(await storedBlobs(dataDir), ["asset/three", "cache/one"]);

    await Deno.mkdir(`${dataDir}/blobs/cache`, { recursive: true });
    await Deno.mkdir(`${dataDir}/blobs/asset`, { recursive: true });
    await Deno.writeFile(`${dataDir}/blobs/cache/orphan`, new Uint8Array(10));
    await Deno.writeFile(`${dataDir}/blobs/asset/x.1234.tmp`, new Uint8Array(10));
    const reopened = await EmbeddedStore.open({ dataDir, maxBytes: 500 });
    assert.equal(reopened.blobBytes, 400);
    assert.deepEqual([...Deno.readDirSync(`${dataDir}/blobs/cache`)].map((f) => f.name), []);
    assert.deepEqual([...Deno.readDirSync(`${dataDir}/blobs/asset`)].map((f) => f.name), []);
    assert.ok(await reopened.getAsset("three"));
    assert.equal(await reopened.getCache("one"), null);
    await reopened.close();
    assert.deepEqual(await storedBlobs(dataDir), ["asset/three"]);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("EmbeddedStore keeps small blobs as KV values and large ones as files, one place each", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-blobs-" });
  try {
    const small = new Uint8Array(3000).fill(1);
    const large = new Uint8Array(200 * 1024).fill(2);
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 8 * MB });
    await store.setCache("small", { value: small, ttlMs: 60_000 });
    await store.setCache("large", { value: large, ttlMs: 60_000 });
    // Replaced by the other kind: the old bytes go from wherever they were.
    await store.setCache("grows", { value: small, ttlMs: 60_000 });
    await store.setCache("grows", { value: large, ttlMs: 60_000 });
    await store.setCache("shrinks", { value: large, ttlMs: 60_000 });
    await store.setCache("shrinks", { value: small, ttlMs: 60_000 });
    assert.deepEqual(await store.getCache("shrinks"), small);
    await store.close();
    assert.deepEqual(await storedBlobs(dataDir), [
      "cache/grows",
      "cache/large",
      "cache/shrinks",
      "cache/small",
    ]);
    assert.deepEqual(
      [...Deno.readDirSync(`${dataDir}/blobs/cache`)].map((f) => f.name).sort(),
      ["grows", "large"],
    );

    // Read back from disk, not from memory.
    const reopened = await EmbeddedStore.open({ dataDir, maxBytes: 8 * MB });
    try {
      assert.deepEqual(await reopened.getCache("small"), small);
      assert.deepEqual(await reopened.getCache("large"), large);
      assert.deepEqual(await reopened.getCache("grows"), large);
      assert.deepEqual(await reopened.getCache("shrinks"), small);
      assert.equal(reopened.blobBytes, 2 * small.length + 2 * large.length);
    } finally {
      await reopened.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("EmbeddedStore keeps thousands of counters across a reopen", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-counters-" });
  try {
    const expiresAt = Date.now() + 60_000;
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 });
    await Promise.all(Array.from({ length: 2000 }, (_, i) => store.increment(`ip${i}`, expiresAt)));
    assert.equal(await store.increment("ip7", expiresAt), 2);
    await store.close();
    const reopened = await EmbeddedStore.open({ dataDir, maxBytes: 1024 });
    assert.equal(await reopened.increment("ip7", expiresAt), 3);
    assert.equal(await reopened.increment("ip1999", expiresAt), 2);
    await reopened.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("RedisStore", async (t) => {
  await using redis = await startRedis();
  const config = { redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 };
  await storeContract(t, () => openStore(config));

  await t.step(
    "fails fast with EUNAVAILABLE while Redis is down and recovers by itself",
    async () => {
      const store = await openStore(config);
      try {
        assert.equal(await store.increment("outage", Date.now() + 60_000), 1);
        await redis.stop();
        const started = performance.now();
        const error = await store.increment("outage", Date.now() + 60_000).then(
          () => null,
          (e) => e,
        );
        const elapsed = performance.now() - started;
        assert.ok(isApiError(error), `expected ApiError, got ${error}`);
        assert.equal(error.code, "EUNAVAILABLE");
        assert.equal(error.status, 503);
        assert.equal(error.headers["retry-after"], "5");
        assert.ok(elapsed < 2000, `took ${elapsed} ms`);
        assert.equal((await store.health()).ok, false);
        await assert.rejects(
          store.getCache("x"),
          (e) => isApiError(e) && e.code === "EUNAVAILABLE",
        );

        await redis.start();
        let value: number | null = null;
        for (let i = 0; i < 60 && value === null; i++) {
          value = await store.increment("outage", Date.now() + 60_000).catch(() => null);
          if (value === null) {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        // The new server is empty (no persistence), so the count starts again.
        assert.equal(value, 1);
        assert.equal((await store.health()).ok, true);
      } finally {
        await store.close();
      }
    },
  );
});

Deno.test("RedisStore fails within the command timeout when Redis hangs, then recovers", async () => {
  await using redis = await startRedis();
  const store = await openStore({ redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 });
  try {
    await store.setCache("hang", { value: new Uint8Array([1]), ttlMs: 60_000 });
    redis.pause();
    const started = performance.now();
    const error = await store.getCache("hang").then(() => null, (e) => e);
    const elapsed = performance.now() - started;
    redis.resume();
    assert.ok(isApiError(error) && error.code === "EUNAVAILABLE", String(error));
    assert.ok(elapsed >= 1000 && elapsed < 3000, `took ${elapsed} ms`);
    let value: Uint8Array | null = null;
    for (let i = 0; i < 60 && value === null; i++) {
      value = await store.getCache("hang").catch(() => null);
      if (value === null) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(value, new Uint8Array([1]));
  } finally {
    await store.close();
  }
});

Deno.test("openStore() with Redis down at start-up opens and reports EUNAVAILABLE", async () => {
  const redis = await startRedis();
  const url = redis.url;
  await redis[Symbol.asyncDispose]();
  const store = await openStore({ redisUrl: url, dataDir: "/nonexistent", cacheMaxBytes: 0 });
  try {
    await assert.rejects(store.serverSecret(), (e) => isApiError(e) && e.code === "EUNAVAILABLE");
  } finally {
    await store.close();
  }
});

/**
 * `ns/id` of every blob the closed store at `dataDir` keeps: its KV values and its files,
 * each checked to have an index entry and no twin in the other place.
 */
Deno.test("EmbeddedStore commits a burst of puts in as few commits as KV's limits allow", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-burst-" });
  try {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 10 * 1024 * 1024 });
    // 40 KV blobs of 60 KB: 2.4 MB, three times what one atomic KV write may carry.
    const names = Array.from({ length: 40 }, (_, i) => `burst${i}`);
    await Promise.all(
      names.map((name, i) =>
        store.setCache(name, { value: new Uint8Array(60 * 1024).fill(i), ttlMs: 60_000 })
      ),
    );
    await store.setCache("burst0", { value: new Uint8Array(10).fill(7), ttlMs: 60_000 });
    await store.close();
    assert.deepEqual(
      await storedBlobs(dataDir),
      names.map((name) => `cache/${name}`).sort(),
    );
    const reopened = await EmbeddedStore.open({ dataDir, maxBytes: 10 * 1024 * 1024 });
    // The later write of a name wins, though both went in the same queue.
    assert.deepEqual(await reopened.getCache("burst0"), new Uint8Array(10).fill(7));
    assert.deepEqual(await reopened.getCache("burst39"), new Uint8Array(60 * 1024).fill(39));
    await reopened.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

async function storedBlobs(dataDir: string): Promise<string[]> {
  const kv = await Deno.openKv(`${dataDir}/state.kv`);
  try {
    const indexed = new Set<string>();
    for await (const entry of kv.list({ prefix: ["blob"] })) {
      indexed.add(entry.key.slice(1).join("/"));
    }
    const values: string[] = [];
    for await (const entry of kv.list({ prefix: ["blobdata"] })) {
      values.push(entry.key.slice(1).join("/"));
    }
    const files: string[] = [];
    for (const ns of ["cache", "asset"]) {
      try {
        for (const file of Deno.readDirSync(`${dataDir}/blobs/${ns}`)) {
          files.push(`${ns}/${file.name}`);
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    for (const name of values) assert.ok(!files.includes(name), `${name}: a KV value and a file`);
    const all = [...values, ...files].sort();
    assert.deepEqual(all, [...indexed].sort(), "every stored blob is indexed, and only those");
    return all;
  } finally {
    kv.close();
  }
}

function bindAll(store: Store): Store {
  return {
    kind: store.kind,
    increment: store.increment.bind(store),
    getCache: store.getCache.bind(store),
    setCache: store.setCache.bind(store),
    putAsset: store.putAsset.bind(store),
    getAsset: store.getAsset.bind(store),
    addKey: store.addKey.bind(store),
    findKeyByHash: store.findKeyByHash.bind(store),
    findKeyById: store.findKeyById.bind(store),
    listKeys: store.listKeys.bind(store),
    revokeKey: store.revokeKey.bind(store),
    serverSecret: store.serverSecret.bind(store),
    health: store.health.bind(store),
    close: store.close.bind(store),
  };
}
