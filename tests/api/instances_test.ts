import assert from "node:assert/strict";
import { startRedis } from "../store/_redis.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

Deno.test("two instances on one Redis behave as one service", async (t) => {
  await using redis = await startRedis();
  await using target = serve({ "/": () => html(`<title>shared</title>`) });
  const env = { REDIS_URL: redis.url, FREE_DAILY_LIMIT: "50" };
  await using a = await testApp(testConfig({ trustPorts: [target.port], env }));
  await using b = await testApp(testConfig({ trustPorts: [target.port], env }));

  await t.step("the daily limit is exact under concurrency across instances", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const response = await (i % 2 ? a : b).get("?url=invalid");
        await response.body?.cancel();
        return response.status;
      }),
    );
    assert.equal(statuses.filter((s) => s !== 429).length, 50);
    assert.equal(statuses.filter((s) => s === 429).length, 150);
  });

  await t.step("a MISS on one instance is a HIT on the other", async () => {
    const query = q(`${target.origin}/`, "&ping=false");
    const first = await a.handler(new Request(`http://localhost/${query}`), {
      remoteAddr: "198.51.100.7",
    });
    const second = await b.handler(new Request(`http://localhost/${query}`), {
      remoteAddr: "198.51.100.8",
    });
    assert.equal(first.headers.get("x-cache-status"), "MISS");
    assert.equal(second.headers.get("x-cache-status"), "HIT");
    assert.equal((await second.json()).data.title, "shared");
    await first.body?.cancel();
  });

  await t.step("an asset stored by one instance is served by the other", async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    await a.handler.services.store.putAsset("shared-asset", {
      bytes,
      contentType: "image/png",
      private: false,
      ttlMs: 60_000,
    });
    const response = await b.handler(new Request("http://localhost/assets/shared-asset.png"));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), bytes);
  });

  await t.step("Redis down is EUNAVAILABLE, and service resumes when it returns", async () => {
    await redis.stop();
    const down = await a.json(q(`${target.origin}/`, "&ping=false"), {});
    assert.equal(down.status, 503);
    assert.equal(down.body.code, "EUNAVAILABLE");
    assert.ok(down.headers.get("retry-after"));
    await redis.start();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      const response = await a.handler(
        new Request(`http://localhost/${q(`${target.origin}/`, "&ping=false")}`),
        {
          remoteAddr: "192.0.2.77",
        },
      );
      status = response.status;
      await response.body?.cancel();
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(status, 200);
  });
});
