/**
 * Records in Redis that are not what linkpeek wrote (garbage bytes, another type under the key,
 * an entry cut short) never turn a request into a 500: a cache entry or asset is a miss (the
 * computation overwrites it), a counter starts again, the server secret is made anew, and a
 * key record that cannot be read is EUNAVAILABLE naming it.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { Redis } from "ioredis";
import { createKey } from "../../lib/plans/mod.ts";
import { openStore } from "../../lib/store/mod.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { startRedis } from "./_redis.ts";

Deno.test("damaged cache entries, counters and assets in Redis are misses, not 500s", async (t) => {
  await using redis = await startRedis();
  const admin = new Redis(redis.url);
  await using target = serve({ "/": () => html(`<title>whole</title>`) });
  await using app = await testApp(
    testConfig({ trustPorts: [target.port], env: { REDIS_URL: redis.url, PRO_HOSTS: "pro.test" } }),
  );
  // `filter` parses the payload: one cut short would throw there.
  const query = q(`${target.origin}/`, "&ping=false&filter=title");
  try {
    const first = await app.json(query);
    assert.equal(first.headers.get("x-cache-status"), "MISS");
    const [cacheKey] = await admin.keys("lp:cache:*");
    assert.ok(cacheKey, "the answer was cached");
    const whole = (await admin.getBuffer(cacheKey))!;

    const damages: [string, () => Promise<unknown>][] = [
      ["random bytes", () => admin.set(cacheKey, Buffer.from([0, 0, 0, 9, 1, 2, 3, 250]))],
      ["a list", () => admin.del(cacheKey).then(() => admin.rpush(cacheKey, "a", "b"))],
      ["a hash", () => admin.del(cacheKey).then(() => admin.hset(cacheKey, "f", "v"))],
      ["an entry cut short", () => admin.set(cacheKey, whole.subarray(0, whole.length - 5))],
      ["an entry with a foreign error", () => admin.set(cacheKey, Buffer.from(foreignError()))],
    ];
    for (const [what, damage] of damages) {
      await t.step(`a cache entry that is ${what} is recomputed and overwritten`, async () => {
        await damage();
        const miss = await app.json(query);
        assert.equal(miss.status, 200, JSON.stringify(miss.body));
        assert.equal(miss.headers.get("x-cache-status"), "MISS");
        assert.equal(miss.body.data.title, "whole");
        const hit = await app.json(query);
        assert.equal(hit.headers.get("x-cache-status"), "HIT", "the damaged record was replaced");
        assert.equal(hit.body.data.title, "whole");
      });
    }

    await t.step("a counter of another type or not a number starts again", async () => {
      const [countKey] = await admin.keys("lp:count:*");
      assert.ok(countKey, "the request was counted");
      for (const damage of [() => admin.rpush(countKey, "x"), () => admin.set(countKey, "x")]) {
        await admin.del(countKey);
        await damage();
        const answer = await app.json(query);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(
          answer.headers.get("x-rate-limit-remaining"),
          String(
            Number(
              answer.headers.get("x-rate-limit-limit"),
            ) - 1,
          ),
        );
        assert.ok(await admin.pttl(countKey) > 0, "the counter still expires");
      }
    });

    await t.step(
      "an asset of another type is a 404, one with a foreign name is served",
      async () => {
        await admin.set("lp:asset:wrongtype", "x");
        const missing = await app.get("assets/wrongtype.png");
        await missing.body?.cancel();
        assert.equal(missing.status, 404);
        assert.equal(await admin.exists("lp:asset:wrongtype"), 0, "the damaged record went");
        await admin.hset("lp:asset:badname", "b", "png", "t", "image/png", "n", "a\r\nb: c");
        const served = await app.get("assets/badname.png");
        assert.equal(served.status, 200);
        assert.doesNotMatch(served.headers.get("content-disposition") ?? "", /filename/);
        assert.equal(await served.text(), "png");
      },
    );

    await t.step("a damaged key record is EUNAVAILABLE naming it", async () => {
      const { key, record } = await createKey(app.handler.services.store, { name: "ci" });
      const pro = () => app.json(query, { headers: { host: "pro.test", "x-api-key": key } });
      assert.equal((await pro()).status, 200);
      for (const damage of ["{not json", JSON.stringify({ id: record.id })]) {
        await admin.set(`lp:key:${record.id}`, damage);
        const answer = await pro();
        assert.equal(answer.status, 503);
        assert.equal(answer.body.code, "EUNAVAILABLE");
        assert.match(answer.body.message, new RegExp(`damaged record \\(lp:key:${record.id}\\)`));
      }
      await admin.del("lp:keyhash");
      await admin.rpush("lp:keyhash", "x");
      const index = await pro();
      assert.equal(index.status, 503);
      assert.match(index.body.message, /damaged record \(lp:keyhash\)/);
    });
  } finally {
    admin.disconnect();
  }
});

Deno.test("a server secret of another type or length in Redis is made anew", async () => {
  await using redis = await startRedis();
  const admin = new Redis(redis.url);
  try {
    for (const damage of [() => admin.rpush("lp:secret", "x"), () => admin.set("lp:secret", "x")]) {
      await admin.del("lp:secret");
      await damage();
      const store = await openStore({
        redisUrl: redis.url,
        dataDir: "/nonexistent",
        cacheMaxBytes: 0,
      });
      try {
        const secret = await store.serverSecret();
        assert.equal(secret.byteLength, 32);
        assert.deepEqual(new Uint8Array((await admin.getBuffer("lp:secret"))!), secret);
      } finally {
        await store.close();
      }
    }
  } finally {
    admin.disconnect();
  }
});

/** An entry whose meta says it is a cached error of a code no contract has. */
function foreignError(): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify({
    v: 2,
    fetchMode: "fetch",
    fetchTimeMs: 1,
    createdAt: Date.now(),
    ttlMs: 60_000,
    text: true,
    error: { code: "EWHATEVER", message: "x", headers: {} },
  }));
  const bytes = new Uint8Array(4 + head.length);
  new DataView(bytes.buffer).setUint32(0, head.length);
  bytes.set(head, 4);
  return bytes;
}
