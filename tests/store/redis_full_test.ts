/**
 * A Redis that is full (maxmemory with noeviction) refuses writes with OOM, and a MULTI holding
 * one with EXECABORT: the store must say "unavailable, retry later" (503 EUNAVAILABLE), not
 * let the reply escape as an unexpected error (500 EFATAL on every request until it drains).
 */
import assert from "node:assert/strict";
import { Redis } from "ioredis";
import { openStore } from "../../lib/store/mod.ts";
import { isApiError } from "../../lib/util/errors.ts";
import { startRedis } from "./_redis.ts";

const unavailable = (error: unknown) => isApiError(error) && error.code === "EUNAVAILABLE";

Deno.test("RedisStore answers EUNAVAILABLE while Redis is full, and works once it has room", async () => {
  await using redis = await startRedis();
  const admin = new Redis(redis.url);
  const store = await openStore({ redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 });
  try {
    await store.serverSecret();
    await admin.config("SET", "maxmemory-policy", "noeviction");
    // Below what the server already uses: every write is refused from now on.
    await admin.config("SET", "maxmemory", "1");
    const asset = { bytes: new Uint8Array(8), contentType: "image/png", private: false };
    await assert.rejects(store.increment("full", Date.now() + 60_000, { limit: 5 }), unavailable);
    await assert.rejects(store.putAsset("full", { ...asset, ttlMs: 60_000 }), unavailable);
    await assert.rejects(
      store.setCache("full", { value: new Uint8Array(8), ttlMs: 60_000 }),
      unavailable,
    );
    // Reads still work while full.
    assert.equal(await store.getCache("full"), null);

    await admin.config("SET", "maxmemory", "0");
    assert.equal(await store.increment("full", Date.now() + 60_000, { limit: 5 }), 1);
  } finally {
    admin.disconnect();
    await store.close();
  }
});
