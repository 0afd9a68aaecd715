/**
 * `proxy=` and `retry=` through the API: pro only, private answers, EPROXYFAILED naming the proxy's
 * host and never its password, a real squid on loopback carrying the fetch.
 */
import assert from "node:assert/strict";
import { createKey } from "../../lib/plans/mod.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { startSquid, startTinyproxy } from "../fetch/_proxies.ts";

Deno.test("proxy=: pro only, through the proxy, private, EPROXYFAILED without secrets", async (t) => {
  let failures = 1;
  await using target = serve({
    "/": () => html("<title>Proxied</title>"),
    "/flaky": () =>
      failures-- > 0 ? new Response("busy", { status: 503 }) : html("<title>Second try</title>"),
  });
  await using squid = await startSquid();
  await using tiny = await startTinyproxy({ user: "ada", password: "s3cret" });
  await using app = await testApp(
    testConfig({
      trustPorts: [target.port, squid.port, tiny.port],
      env: { PRO_HOSTS: "pro.test" },
    }),
  );
  const { key } = await createKey(app.handler.services.store, { name: "ci" });
  const pro = (query: string) =>
    app.json(query, { headers: { host: "pro.test", "x-api-key": key } });
  const page = `${target.origin}/`;

  await t.step(
    "on the free endpoint: EPROXY (Microlink's code), and the target is never asked",
    async () => {
      const before = target.hits;
      const { status, body } = await app.json(
        q(page, `&proxy=${encodeURIComponent(squid.url)}&ping=false`),
      );
      assert.equal(status, 400);
      assert.equal(body.code, "EPROXY");
      assert.equal(target.hits, before);
    },
  );

  await t.step("on pro: fetched through the proxy, answered privately", async () => {
    const { status, headers, body } = await pro(
      q(page, `&proxy=${encodeURIComponent(squid.url)}&ping=false&force=true`),
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.data.title, "Proxied");
    assert.equal(headers.get("cache-control"), "private, no-store");
    // Microlink's way to tell a proxied fetch
    assert.equal(headers.get("x-fetch-mode"), "fetch-proxy");
    let log = "";
    for (let i = 0; i < 100 && !log.includes(`CONNECT 127.0.0.1:${target.port}`); i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = await squid.log();
    }
    assert.match(log, new RegExp(`CONNECT 127\\.0\\.0\\.1:${target.port}`));
  });

  await t.step(
    "a proxy asking for credentials: EPROXYFAILED 502 naming its host only",
    async () => {
      const wrong = `http://ada:hunter2@127.0.0.1:${tiny.port}`;
      const { status, body } = await pro(
        q(page, `&proxy=${encodeURIComponent(wrong)}&ping=false`),
      );
      assert.equal(status, 502);
      assert.equal(body.code, "EPROXYFAILED");
      assert.equal(body.status, "error");
      assert.match(body.message, /^The proxy "127\.0\.0\.1" asked for credentials/);
      assert.doesNotMatch(JSON.stringify(body), /hunter2|ada:/);
    },
  );

  await t.step(
    "a proxy that is not a URL: EINVALPROXY naming `proxy`, value not echoed",
    async () => {
      const { status, body } = await pro(q(page, "&proxy=ftp%3A%2F%2Fada%3Ahunter2%40p.invalid"));
      assert.equal(status, 400);
      assert.equal(body.code, "EINVALPROXY");
      assert.match(body.message, /`proxy`/);
      assert.doesNotMatch(JSON.stringify(body), /hunter2/);
    },
  );

  await t.step("retry: a 503 is retried by default, retry=0 answers it", async () => {
    failures = 1;
    const retried = await app.json(q(`${target.origin}/flaky`, "&ping=false&force=true"));
    assert.equal(retried.body.statusCode, 200);
    assert.equal(retried.body.data.title, "Second try");
    failures = 1;
    const once = await app.json(q(`${target.origin}/flaky`, "&ping=false&force=true&retry=0"));
    assert.equal(once.body.statusCode, 503);
    const bad = await app.json(q(page, "&retry=4"));
    assert.equal(bad.body.code, "EINVALQUERY");
    assert.match(bad.body.message, /`retry`/);
  });
});
