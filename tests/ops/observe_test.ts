import assert from "node:assert/strict";
import { samples } from "./_prometheus.ts";
import { createHandler } from "../../lib/handler/mod.ts";
import { html, q, serve, testConfig } from "../_fixtures.ts";
import { startRedis } from "../store/_redis.ts";

const LOOPBACK = { remoteAddr: "127.0.0.1" };
const OUTSIDE = { remoteAddr: "203.0.113.7" };

const get = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost:3000${path}`, init);

Deno.test("GET /health answers ok to anyone, without counting as an API request", async () => {
  const handler = await createHandler(testConfig());
  try {
    const response = await handler(get("/health"), OUTSIDE);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: "ok" });
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.equal(response.headers.get("x-rate-limit-limit"), null);
  } finally {
    await handler.close();
  }
});

Deno.test("GET /ready reflects the browser and the store", async (t) => {
  await t.step("200 with Chromium and the embedded store", async () => {
    const handler = await createHandler(
      testConfig({ env: { CHROMIUM_PATH: "/usr/bin/chromium" } }),
    );
    try {
      const response = await handler(get("/ready"), LOOPBACK);
      assert.deepEqual(await response.json(), { status: "ready", browser: true, store: true });
      assert.equal(response.status, 200);
    } finally {
      await handler.close();
    }
  });
  await t.step("503 naming the browser when Chromium is missing", async () => {
    const handler = await createHandler(
      testConfig({ env: { CHROMIUM_PATH: "/nonexistent/chromium" } }),
    );
    try {
      const response = await handler(get("/ready"), LOOPBACK);
      assert.equal(response.status, 503);
      assert.deepEqual(await response.json(), { status: "unready", browser: false, store: true });
    } finally {
      await handler.close();
    }
  });
  await t.step("with Redis: 200, then 503 naming the store while Redis is down", async () => {
    await using redis = await startRedis();
    const handler = await createHandler(
      testConfig({ env: { CHROMIUM_PATH: "/usr/bin/chromium", REDIS_URL: redis.url } }),
    );
    try {
      const up = await handler(get("/ready"), LOOPBACK);
      assert.deepEqual(await up.json(), { status: "ready", browser: true, store: true });
      await redis.stop();
      const down = await handler(get("/ready"), LOOPBACK);
      assert.equal(down.status, 503);
      assert.deepEqual(await down.json(), { status: "unready", browser: true, store: false });
      await redis.start();
      let back: Response | null = null;
      for (let i = 0; i < 50; i++) {
        back = await handler(get("/ready"), LOOPBACK);
        if (back.status === 200) break;
        await back.body?.cancel();
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(back?.status, 200, "ready again once Redis is back");
      await back?.body?.cancel();
    } finally {
      await handler.close();
    }
  });
});

Deno.test("GET /metrics counts API requests by plan, status and code", async () => {
  await using site = serve({
    "/page": () => html("<title>Metrics page</title><meta name=description content=d>"),
  });
  const handler = await createHandler(testConfig({ trustPorts: [site.port] }));
  try {
    const ok = await handler(get(`/${q(`${site.origin}/page`, "&ping=false")}`), LOOPBACK);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const again = await handler(get(`/${q(`${site.origin}/page`, "&ping=false")}`), LOOPBACK);
    assert.equal(again.headers.get("x-cache-status"), "HIT");
    await again.body?.cancel();
    const bad = await handler(get("/?url=foo"), LOOPBACK);
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    await (await handler(get("/health"), LOOPBACK)).body?.cancel();

    const response = await handler(get("/metrics"), LOOPBACK);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const values = samples(text);
    assert.equal(values.get('linkpeek_requests_total{plan="free",status="200",code=""}'), 2);
    assert.equal(
      values.get('linkpeek_requests_total{plan="free",status="400",code="EINVALURL"}'),
      1,
    );
    assert.equal(values.get("linkpeek_request_duration_seconds_count"), 3);
    assert.equal(values.get('linkpeek_request_duration_seconds_bucket{le="+Inf"}'), 3);
    assert.equal(values.get("linkpeek_cache_hit_ratio"), 0.5);
    assert.ok(values.get("linkpeek_fetch_bytes_total")! > 0, "fetched bytes are counted");
    assert.equal(values.get("linkpeek_browser_pages_in_use"), 0);
    assert.equal(values.get("linkpeek_browser_queue_length"), 0);
    assert.match(text, /# TYPE linkpeek_request_duration_seconds histogram/);
  } finally {
    await handler.close();
  }
});

Deno.test("/ready and /metrics answer beyond loopback only with METRICS_TOKEN", async (t) => {
  await t.step("without a token configured: loopback only", async () => {
    const handler = await createHandler(
      testConfig({ env: { CHROMIUM_PATH: "/usr/bin/chromium" } }),
    );
    try {
      for (const path of ["/ready", "/metrics"]) {
        const outside = await handler(get(path), OUTSIDE);
        assert.equal(outside.status, 404, `${path} from outside`);
        assert.equal((await outside.json()).code, "ENOROUTE");
        const forged = await handler(
          get(path, { headers: { authorization: "Bearer x" } }),
          OUTSIDE,
        );
        assert.equal(forged.status, 404);
        await forged.body?.cancel();
        for (const remoteAddr of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
          const inside = await handler(get(path), { remoteAddr });
          assert.equal(inside.status, 200, `${path} from ${remoteAddr}`);
          await inside.body?.cancel();
        }
      }
    } finally {
      await handler.close();
    }
  });
  await t.step(
    "with METRICS_TOKEN: the bearer token opens them, a wrong one does not",
    async () => {
      const token = "s3cret-metrics-token";
      const handler = await createHandler(
        testConfig({ env: { METRICS_TOKEN: token, CHROMIUM_PATH: "/usr/bin/chromium" } }),
      );
      try {
        for (const path of ["/ready", "/metrics"]) {
          const good = await handler(
            get(path, { headers: { authorization: `Bearer ${token}` } }),
            OUTSIDE,
          );
          assert.equal(good.status, 200, path);
          await good.body?.cancel();
          const wrong = await handler(
            get(path, { headers: { authorization: "Bearer nope" } }),
            OUTSIDE,
          );
          assert.equal(wrong.status, 404, path);
          await wrong.body?.cancel();
          const bare = await handler(get(path, { headers: { authorization: token } }), OUTSIDE);
          assert.equal(bare.status, 404, `${path} needs the Bearer scheme`);
          await bare.body?.cancel();
        }
      } finally {
        await handler.close();
      }
    },
  );
});

Deno.test("/metrics behind a trusted reverse proxy on the same machine stays closed to visitors", async () => {
  const handler = await createHandler(testConfig({ env: { TRUSTED_PROXIES: "127.0.0.1" } }));
  try {
    const visitor = await handler(
      get("/metrics", { headers: { "x-forwarded-for": "198.51.100.23" } }),
      LOOPBACK,
    );
    assert.equal(visitor.status, 404);
    await visitor.body?.cancel();
    const local = await handler(get("/metrics"), LOOPBACK);
    assert.equal(local.status, 200);
    await local.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("/metrics shows the browser pool's capacity as BROWSER_PAGES and BROWSER_QUEUE set it", async () => {
  const handler = await createHandler(
    testConfig({ env: { BROWSER_PAGES: "2", BROWSER_QUEUE: "5" } }),
  );
  try {
    const response = await handler(get("/metrics"), LOOPBACK);
    const values = samples(await response.text());
    assert.equal(values.get("linkpeek_browser_pages_capacity"), 2);
    assert.equal(values.get("linkpeek_browser_queue_capacity"), 5);
    assert.equal(values.get("linkpeek_browser_contexts"), 0);
  } finally {
    await handler.close();
  }
});
