import assert from "node:assert/strict";
import { DENIED_HEADER, startProxy } from "../../lib/browser/proxy_server.ts";
import { BrowserPool } from "../../lib/browser/mod.ts";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { requireChromium, startCanary } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Sends `request` to 127.0.0.1:port and reads until the server closes. */
async function exchange(port: number, request: string): Promise<string> {
  using conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(request));
  return await readAll(conn);
}

async function readAll(conn: Deno.Conn, until?: string): Promise<string> {
  let text = "";
  const buffer = new Uint8Array(16 * 1024);
  for (;;) {
    const n = await conn.read(buffer);
    if (n === null) return text;
    text += decoder.decode(buffer.subarray(0, n));
    if (until && text.includes(until)) return text;
  }
}

Deno.test("startProxy() forwards allowed targets and refuses the rest with 403", async (t) => {
  await using canary = startCanary();
  await using site = serve({ "/hello": () => html("<p>hello</p>") });
  const config = testConfig({ trustPorts: [site.port] });
  await using proxy = await startProxy({ fetcher: new GuardedFetcher({ config }) });

  await t.step("absolute-form GET reaches the target and is told to close", async () => {
    const answer = await exchange(
      proxy.port,
      `GET ${site.origin}/hello?x=1 HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n` +
        "Proxy-Connection: keep-alive\r\nX-Test: 1\r\n\r\n",
    );
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(answer, /\r\nConnection: close\r\n/);
    assert.match(answer, /<p>hello<\/p>$/);
    const seen = site.seen.at(-1)!;
    assert.equal(seen.path, "/hello");
    assert.equal(seen.headers["x-test"], "1");
    assert.equal(seen.headers["proxy-connection"], undefined);
  });

  await t.step("CONNECT opens a tunnel to an allowed target", async () => {
    using conn = await Deno.connect({ hostname: "127.0.0.1", port: proxy.port });
    await conn.write(encoder.encode(`CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\n\r\n`));
    const established = await readAll(conn, "\r\n\r\n");
    assert.equal(established, "HTTP/1.1 200 Connection Established\r\n\r\n");
    await conn.write(encoder.encode("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    assert.match(await readAll(conn), /^HTTP\/1\.1 200 OK[\s\S]*<p>hello<\/p>$/);
  });

  await t.step("forbidden targets get 403 with the marker and never a connection", async () => {
    for (
      const request of [
        `GET ${canary.origin}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
        `GET http://localhost:${canary.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
        `CONNECT 127.0.0.1:${canary.port} HTTP/1.1\r\n\r\n`,
        `CONNECT [::1]:${canary.port} HTTP/1.1\r\n\r\n`,
        `CONNECT 0x7f.1:${canary.port} HTTP/1.1\r\n\r\n`,
      ]
    ) {
      const answer = await exchange(proxy.port, request);
      assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/, request);
      assert.match(answer, new RegExp(`\r\n${DENIED_HEADER}: EFORBIDDENURL\r\n`));
      assert.match(answer, /forbidden address/);
    }
    assert.equal(proxy.denial("127.0.0.1", canary.port)?.code, "EFORBIDDENURL");
    assert.equal(proxy.denial("::1", canary.port)?.code, "EFORBIDDENURL");
    assert.equal(canary.connections, 0);
  });

  await t.step("anything that is not a proxy request is 400", async () => {
    for (
      const request of [
        "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET ftp://127.0.0.1/ HTTP/1.1\r\n\r\n",
        "CONNECT nowhere HTTP/1.1\r\n\r\n",
        "garbage\r\n\r\n",
      ]
    ) {
      assert.match(await exchange(proxy.port, request), /^HTTP\/1\.1 400 Bad Request\r\n/);
    }
  });
  assert.equal(proxy.open() >= 0, true);
});

Deno.test("startProxy() closes both sockets of every finished request (no descriptor leak)", async () => {
  await using site = serve({ "/hello": () => html("<p>hello</p>") });
  const config = testConfig({ trustPorts: [site.port] });
  await using proxy = await startProxy({ fetcher: new GuardedFetcher({ config }) });
  for (let i = 0; i < 5; i++) {
    const plain = await exchange(
      proxy.port,
      `GET ${site.origin}/hello HTTP/1.1\r\nHost: 127.0.0.1:${site.port}\r\n\r\n`,
    );
    assert.match(plain, /<p>hello<\/p>/);
    const tunnelled = await exchange(
      proxy.port,
      `CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\n\r\n` +
        `GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    assert.match(tunnelled, /<p>hello<\/p>/);
  }
  // The clients have closed: every socket the proxy holds follows (the count never reached 0
  // when the side whose pipe was gone stayed paused and never read its peer's FIN).
  for (let i = 0; i < 500 && proxy.open() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(proxy.open(), 0);
});

Deno.test("BrowserPool registers its proxy port so even trusted loopback cannot reach it", async () => {
  await using site = serve({ "/": () => html("<p>ok</p>") });
  // Every loopback port trusted: only the own-port rule stands between a page and the proxy.
  const config = testConfig({ trustPorts: [site.port] });
  config.trustedTargets = [{ network: "127.0.0.0", prefix: 8, port: null }];
  const before = [...config.ownPorts];
  requireChromium();
  const fetcher = new GuardedFetcher({ config });
  await using pool = new BrowserPool({ config, fetcher });
  assert.equal(await pool.ready(), true);
  const [proxyPort] = fetcher.ownPorts;
  assert.ok(proxyPort, "the proxy port was added to the fetcher's own ports");
  assert.deepEqual(config.ownPorts, before, "the shared config is left as it was");
  const answer = await exchange(
    proxyPort,
    `GET http://127.0.0.1:${proxyPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
  );
  assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/);
  await assert.rejects(
    pool.visit(`http://127.0.0.1:${proxyPort}/`),
    (error: Error & { code?: string }) => error.code === "EFORBIDDENURL",
  );
});
