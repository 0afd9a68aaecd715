/**
 * Egress through real proxies (tinyproxy, squid) on loopback: http and https targets, the
 * browser, EGRESS_PROXY, the guard around and behind the proxy, and EPROXYFAILED. Target names
 * resolve (injected resolver) straight to 127.0.0.1, so what a proxy is asked to CONNECT to is
 * a loopback fixture: nothing leaves the machine.
 */
import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { NetworkHooks } from "../../lib/guard/types.ts";
import { parseProxy, type ProxySpec } from "../../lib/fetch/proxy_client.ts";
import { ApiError } from "../../lib/util/errors.ts";
import { BrowserPool } from "../../lib/browser/mod.ts";
import { certsFor } from "../extract/_certs.ts";
import { serve, tableResolver, testConfig } from "../_fixtures.ts";
import { type RunningProxy, startSquid, startTinyproxy } from "./_proxies.ts";
import { requireChromium } from "../browser/_helpers.ts";
import { startRecordingProxy } from "./_recording_proxy.ts";

const SITE = "site.example.test";
const proxyOf = (url: string): ProxySpec => parseProxy(url, (why) => new Error(why));

/** A loopback target; the Host it was asked for is in `seen[].headers.host`. */
function target(tls: { cert: string; key: string } | null = null) {
  return serve(
    () => new Response(`<title>through</title>`, { headers: { "content-type": "text/html" } }),
    tls,
  );
}

/** The bytes squid's access log counts for its tunnels to `address` (sent back to linkpeek). */
function tunnelledBytes(log: string, address: string): number[] {
  const line = new RegExp(
    `TCP_TUNNEL/200 (\\d+) CONNECT ${address.replaceAll(".", "\\.")}\\b`,
    "g",
  );
  return [...log.matchAll(line)].map((match) => Number(match[1]));
}

/** Waits until the proxy's log holds `text` (squid writes a tunnel's line when it closes). */
async function logged(proxy: RunningProxy, text: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const log = await proxy.log();
    if (log.includes(text)) return log;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await proxy.log();
}

/** SITE resolves to 127.0.0.1 (a table, never DNS). */
const network: NetworkHooks = { resolver: tableResolver({ [SITE]: ["127.0.0.1"] }) };

function configFor(ports: number[]) {
  return testConfig({ trustPorts: ports });
}

const isCode = (code: string, pattern?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.code, code, error.message);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

Deno.test("the fetcher tunnels to the checked address through tinyproxy and squid", async (t) => {
  const names = [SITE];
  const { ca, cert, key } = await certsFor(names);
  await using plain = target();
  await using secure = target({ cert, key });
  // tinyproxy hands every tunnel on to a recording proxy: what it carried is counted there.
  await using recorder = await startRecordingProxy();
  await using tiny = await startTinyproxy(
    { user: "ada", password: "s3cret" },
    `127.0.0.1:${recorder.port}`,
  );
  await using squid = await startSquid();
  const config = configFor([plain.port, secure.port, tiny.port, squid.port, recorder.port]);
  const fetcher = new GuardedFetcher({ config, network, ca: [ca] });

  for (const [name, proxy] of [["tinyproxy", tiny], ["squid", squid]] as const) {
    await t.step(
      `${name}: http and https targets, CONNECT to the IP, the name in Host/SNI`,
      async () => {
        const spec = proxyOf(proxy.url);
        const http = await fetcher.fetch(`http://${SITE}:${plain.port}/`, { proxy: spec });
        assert.equal(http.statusCode, 200);
        assert.equal(plain.last?.headers.host, `${SITE}:${plain.port}`);
        const https = await fetcher.fetch(`https://${SITE}:${secure.port}/`, { proxy: spec });
        assert.equal(new TextDecoder().decode(https.body), "<title>through</title>");
        assert.equal(secure.last?.headers.host, `${SITE}:${secure.port}`);
        const log = await logged(proxy, `127.0.0.1:${secure.port}`);
        assert.match(log, new RegExp(`CONNECT 127\\.0\\.0\\.1:${plain.port}`));
        assert.match(log, new RegExp(`CONNECT 127\\.0\\.0\\.1:${secure.port}`));
        assert.doesNotMatch(log, /site\.example\.test/); // the proxy never saw the name
        // The bytes crossed the proxy: the answers (and TLS handshake) came back through it.
        if (name === "squid") {
          assert.ok(tunnelledBytes(log, `127.0.0.1:${plain.port}`)[0]! > 100, log);
          assert.ok(tunnelledBytes(log, `127.0.0.1:${secure.port}`)[0]! > 1000, log);
        } else {
          assert.deepEqual(recorder.requestLines, ["GET / HTTP/1.1"]);
          assert.ok(recorder.down() > 1000, `${recorder.down()} bytes came back`);
        }
      },
    );
  }

  await t.step("EGRESS_PROXY sends every fetch and dial through the proxy", async () => {
    const line = `CONNECT 127.0.0.1:${plain.port}`;
    const count = (log: string) => log.split(line).length - 1;
    const before = count(await logged(squid, line));
    const egress = new GuardedFetcher({
      config: { ...config, egressProxy: proxyOf(squid.url) },
      network,
    });
    const result = await egress.fetch(`http://${SITE}:${plain.port}/egress`);
    assert.equal(result.statusCode, 200);
    const socket = await egress.dial(SITE, plain.port);
    socket.destroy();
    for (let i = 0; i < 100 && count(await squid.log()) < before + 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const log = await squid.log();
    assert.equal(count(log), before + 2);
    // The fetch's answer came back through the tunnel (the dial's socket carried nothing).
    assert.ok(tunnelledBytes(log, `127.0.0.1:${plain.port}`).slice(before).some((n) => n > 100));
  });

  await t.step(
    "407 without or with wrong credentials: EPROXYFAILED naming the host only",
    async () => {
      for (
        const url of [`http://127.0.0.1:${tiny.port}`, `http://ada:wrong@127.0.0.1:${tiny.port}`]
      ) {
        await assert.rejects(
          fetcher.fetch(`http://${SITE}:${plain.port}/`, { proxy: proxyOf(url) }),
          isCode("EPROXYFAILED", /^The proxy "127\.0\.0\.1" asked for credentials \(40[17]\)\.$/),
        );
      }
    },
  );
});

Deno.test("the guard holds around and behind a proxy", async (t) => {
  await using plain = target();
  await using squid = await startSquid();

  await t.step("a proxy on an address TRUSTED_TARGETS does not list is EFORBIDDENURL", async () => {
    const fetcher = new GuardedFetcher({ config: configFor([plain.port]), network });
    await assert.rejects(
      fetcher.fetch(`http://${SITE}:${plain.port}/`, { proxy: proxyOf(squid.url) }),
      isCode("EFORBIDDENURL", /proxy/),
    );
    assert.equal(plain.hits, 0);
  });

  await t.step("a target on a private address is refused before the proxy is asked", async () => {
    const fetcher = new GuardedFetcher({
      config: configFor([squid.port]),
      network: { resolver: tableResolver({ [SITE]: ["10.0.0.9"] }) },
    });
    await assert.rejects(
      fetcher.fetch(`http://${SITE}/`, { proxy: proxyOf(squid.url) }),
      isCode("EFORBIDDENURL"),
    );
    assert.doesNotMatch(await squid.log(), /10\.0\.0\.9/);
  });

  await t.step(
    "a proxy that refuses connections is EPROXYFAILED, never a direct fetch",
    async () => {
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (closed.addr as Deno.NetAddr).port;
      closed.close();
      const fetcher = new GuardedFetcher({ config: configFor([plain.port, port]), network });
      await assert.rejects(
        fetcher.fetch(`http://${SITE}:${plain.port}/`, {
          proxy: proxyOf(`http://user:pw@127.0.0.1:${port}`),
          retries: 2,
        }),
        isCode("EPROXYFAILED", /^The proxy "127\.0\.0\.1" refused the connection\.$/),
      );
      assert.equal(plain.hits, 0);
    },
  );
});

Deno.test("the browser's traffic leaves through the request's proxy", async () => {
  requireChromium();
  await using plain = target();
  await using tiny = await startTinyproxy({ user: "ada", password: "s3cret" });
  const config = configFor([plain.port, tiny.port]);
  await using pool = new BrowserPool({ config, fetcher: new GuardedFetcher({ config, network }) });
  const result = await pool.visit(`http://${SITE}:${plain.port}/page`, {
    html: true,
    proxy: proxyOf(tiny.url),
  });
  assert.match(result.html!, /<title>through<\/title>/);
  assert.match(await logged(tiny, `CONNECT 127.0.0.1:${plain.port}`), /CONNECT 127\.0\.0\.1/);

  const denied = pool.visit(`http://${SITE}:${plain.port}/page`, {
    html: true,
    proxy: proxyOf(`http://127.0.0.1:${tiny.port}`),
  });
  await assert.rejects(denied, isCode("EPROXYFAILED", /asked for credentials/));
});
