import assert from "node:assert/strict";
import { createKey, signedQuery } from "../../lib/plans/mod.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

function site() {
  return serve({
    "/": () => html(`<title>Counted ${Date.now()}</title>`),
    "/private": (request) => html(`<title>${request.headers.get("cookie") ?? "anonymous"}</title>`),
  });
}

Deno.test("the free endpoint counts every request per client and answers ERATE beyond the limit", async () => {
  await using target = site();
  await using app = await testApp(
    testConfig({ trustPorts: [target.port], env: { FREE_DAILY_LIMIT: "3" } }),
  );
  const remaining: string[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await app.get(i === 1 ? "?url=bad" : q(`${target.origin}/`, "&ping=false"));
    await response.body?.cancel();
    remaining.push(response.headers.get("x-rate-limit-remaining")!);
    assert.equal(response.headers.get("x-rate-limit-limit"), "3");
    assert.equal(response.headers.get("ratelimit-policy"), '"daily";q=3;w=86400');
  }
  assert.deepEqual(remaining, ["2", "1", "0"], "errors count too");
  const limited = await app.json(q(`${target.origin}/`));
  assert.equal(limited.status, 429);
  assert.equal(limited.body.code, "ERATE");
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  const reset = Number(limited.headers.get("x-rate-limit-reset"));
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  assert.equal(reset, midnight.getTime() / 1000);
  // Another client still has its own allowance.
  const other = await app.handler(
    new Request(`http://localhost/${q(`${target.origin}/`, "&ping=false")}`),
    {
      remoteAddr: "203.0.113.9",
    },
  );
  assert.equal(other.status, 200);
  await other.body?.cancel();
});

Deno.test("pro needs a registered key; a key on free is EPRO", async () => {
  await using target = site();
  await using app = await testApp(
    testConfig({ trustPorts: [target.port], env: { PRO_HOSTS: "pro.test" } }),
  );
  const { key, record } = await createKey(app.handler.services.store, { name: "ci" });
  const pro = (query: string, headers: Record<string, string> = {}) =>
    app.json(query, { headers: { host: "pro.test", ...headers } });

  const missing = await pro(q(`${target.origin}/`));
  assert.equal(missing.status, 401);
  assert.equal(missing.body.code, "EAUTH");
  const wrong = await pro(q(`${target.origin}/`), { "x-api-key": "lp_short" });
  assert.equal(wrong.body.code, "EAUTH");

  const ok = await pro(q(`${target.origin}/`, "&ping=false"), { "x-api-key": key });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("x-pricing-plan"), "pro");
  assert.equal(ok.headers.get("x-rate-limit-limit"), null, "no quota on this key");

  const viaQuery = await pro(q(`${target.origin}/`, `&ping=false&headers.apiKey=${key}`));
  assert.equal(viaQuery.status, 200);
  assert.ok(!target.paths.some((h) => h.includes(key)));

  const onFree = await app.json(q(`${target.origin}/`), { headers: { "x-api-key": key } });
  assert.equal(onFree.status, 400);
  assert.equal(onFree.body.code, "EPRO");

  const query = q(`${target.origin}/`, "&ping=false&embed=title").slice(1);
  const signed = await app.get(`?${signedQuery(record, query)}`, { headers: { host: "pro.test" } });
  assert.equal(signed.status, 200);
  assert.match(await signed.text(), /^Counted/);
  const tampered = await pro(`?${signedQuery(record, query).replace("embed=title", "embed=url")}`);
  assert.equal(tampered.body.code, "EAUTH");
});

Deno.test("responses are cached: MISS then HIT, force is BYPASS, ttl bounds x-cache-ttl", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const query = q(`${target.origin}/`, "&ping=false&ttl=1h");
  const first = await app.json(query);
  const second = await app.json(query);
  assert.equal(first.headers.get("x-cache-status"), "MISS");
  assert.equal(second.headers.get("x-cache-status"), "HIT");
  assert.equal(second.body.data.title, first.body.data.title);
  assert.equal(second.headers.get("x-timestamp"), first.headers.get("x-timestamp"));
  assert.ok(Number(second.headers.get("x-cache-ttl")) <= 3_600_000);
  assert.ok(Number(second.headers.get("x-cache-ttl")) > 3_500_000);
  assert.equal(target.hits, 1);
  const forced = await app.json(`${query}&force=true`);
  assert.equal(forced.headers.get("x-cache-status"), "BYPASS");
  assert.equal(target.hits, 2);
});

Deno.test("identical concurrent requests fetch the target once", async () => {
  await using target = serve({
    "/slow": () =>
      new Promise((resolve) => setTimeout(() => resolve(html("<title>once</title>")), 300)),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => app.json(q(`${target.origin}/slow`, "&ping=false"))),
  );
  assert.ok(answers.every((a) => a.body.data.title === "once"));
  assert.equal(target.hits, 1);
});

Deno.test("credentialed answers are private and never served to another caller", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const url = `${target.origin}/private`;
  const alice = await app.json(q(url, "&ping=false&headers.cookie=alice"));
  assert.equal(alice.body.data.title, "alice");
  assert.equal(alice.headers.get("cache-control"), "private, no-store");
  const bob = await app.json(q(url, "&ping=false&headers.cookie=bob"));
  assert.equal(bob.body.data.title, "bob");
  assert.equal(bob.headers.get("x-cache-status"), "MISS");
  const anonymous = await app.json(q(url, "&ping=false"));
  assert.equal(anonymous.body.data.title, "anonymous");
  assert.match(anonymous.headers.get("cache-control")!, /^public/);
});
