/**
 * Issue #22 (1, 2, 3, 15): what crosses a proxy's tunnel. A proxy answering its 200 and a
 * target's bytes in one write, an https target with a bad certificate behind a proxy, the
 * bytes of the page fetch and of oEmbed through the tunnel, a proxy that never answers. The
 * server-wide faults are shown on main.ts run as `deno task start` runs it.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { NetworkHooks } from "../../lib/guard/types.ts";
import { parseProxy, type ProxySpec } from "../../lib/fetch/proxy_client.ts";
import { ApiError } from "../../lib/util/errors.ts";
import { fetchIframe } from "../../lib/oembed/mod.ts";
import { certsFor } from "../extract/_certs.ts";
import { q, serve, tableResolver, testApp, testConfig } from "../_fixtures.ts";
import { startMain } from "../ops/_main_process.ts";
import { BANNER, startRecordingProxy } from "./_recording_proxy.ts";
import { startTinyproxy } from "./_proxies.ts";

const SITE = "site.example.test";
const PAGE = "<title>through the tunnel</title>";
const proxyOf = (url: string): ProxySpec => parseProxy(url, (why) => new Error(why));

function site(tls: { cert: string; key: string } | null = null) {
  return serve((request) => {
    if (new URL(request.url).pathname === "/oembed") {
      return Response.json({ type: "rich", version: "1.0", html: "<p>embedded</p>" });
    }
    return new Response(PAGE, { headers: { "content-type": "text/html" } });
  }, tls);
}

/** SITE resolves to 127.0.0.1 (a table, never DNS). */
const network: NetworkHooks = { resolver: tableResolver({ [SITE]: ["127.0.0.1"] }) };

function configFor(ports: number[], extra: Parameters<typeof testConfig>[0] = {}) {
  return testConfig({ trustPorts: ports, ...extra });
}

/** A self-signed certificate for `name`, made with openssl for this run. */
async function selfSigned(name: string): Promise<{ cert: string; key: string }> {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-self-signed-" });
  try {
    const args = `req -x509 -newkey rsa:2048 -nodes -days 1 -keyout key.pem -out cert.pem ` +
      `-subj /CN=${name} -addext subjectAltName=DNS:${name},IP:127.0.0.1`;
    const made = await new Deno.Command("openssl", {
      args: args.split(" "),
      cwd: dir,
      stderr: "piped",
    })
      .output();
    if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
    return {
      cert: await Deno.readTextFile(`${dir}/cert.pem`),
      key: await Deno.readTextFile(`${dir}/key.pem`),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const isCode = (code: string, pattern?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.code, code, error.message);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

/** `promise`, or a failure naming `what` after a generous 10 s. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited 10 s for ${what}`)), 10_000);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** /health answers within a generous bound: the event loop is not frozen. */
async function healthy(origin: string): Promise<void> {
  const response = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel();
  assert.equal(response.status, 200);
}

interface Answer {
  code?: string;
  message?: string;
  data?: { title?: string };
}

async function api(origin: string, url: string): Promise<{ status: number; body: Answer }> {
  const response = await fetch(`${origin}/?url=${encodeURIComponent(url)}&ping=false`, {
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json() };
}

Deno.test("a proxy's 200 and the target's first bytes in one write freeze nothing", async () => {
  await using target = site();
  await using proxy = await startRecordingProxy("banner");
  await using main = await startMain({
    TRUSTED_TARGETS: `127.0.0.1:${target.port},127.0.0.1:${proxy.port}`,
    EGRESS_PROXY: proxy.url,
    FETCH_TIMEOUT_MS: "5000",
  });
  const answer = api(main.origin, `http://127.0.0.1:${target.port}/`);
  answer.catch(() => {}); // awaited below, once /health has had its say
  await proxy.connected();
  await healthy(main.origin);
  // Banner bytes where an HTTP answer belongs: a clear 502, long before the deadline matters.
  const { status, body } = await answer;
  assert.equal(status, 502, JSON.stringify(body));
  assert.equal(body.code, "EFETCH");
  assert.match(body.message ?? "", /invalid HTTP response/);
  await healthy(main.origin);

  // The browser's egress proxy dials through the same handshake: the banner arrives once.
  const config = configFor([target.port, proxy.port], { egressProxy: proxyOf(proxy.url) });
  const socket = await new GuardedFetcher({ config, network }).dial(SITE, target.port);
  socket.resume();
  const first = await new Promise<Buffer>((resolve) => socket.once("data", resolve));
  socket.destroy();
  assert.equal(first.toString(), BANNER);
});

Deno.test("a target that speaks first, through a relaying proxy, is EFETCH", async () => {
  // An SSH server: its banner is the first thing through the tunnel.
  const banner = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (banner.addr as Deno.NetAddr).port;
  const serving = (async () => {
    for await (const conn of banner) {
      await conn.write(new TextEncoder().encode(BANNER)).catch(() => {});
      conn.readable.pipeTo(new WritableStream()).catch(() => {}); // closes it when the peer does
    }
  })();
  try {
    await using proxy = await startRecordingProxy("relay");
    const config = configFor([port, proxy.port], { egressProxy: proxyOf(proxy.url) });
    await assert.rejects(
      new GuardedFetcher({ config, network }).fetch(`http://${SITE}:${port}/`),
      isCode("EFETCH", /invalid HTTP response/),
    );
    assert.deepEqual(proxy.connects, [`127.0.0.1:${port}`]);
    await within(proxy.carried(), "the request to cross the tunnel");
    assert.deepEqual(proxy.requestLines, ["GET / HTTP/1.1"]);
  } finally {
    banner.close();
    await serving.catch(() => {});
  }
});

Deno.test("an https target with a bad certificate behind a proxy is EFETCH, not a crash", async (t) => {
  const { cert, key } = await selfSigned(SITE);
  await using secure = site({ cert, key });
  await using plain = site();

  await t.step("main.ts answers 502 EFETCH, stays up and serves the next request", async () => {
    await using proxy = await startRecordingProxy("relay");
    await using main = await startMain({
      TRUSTED_TARGETS: [secure.port, plain.port, proxy.port].map((p) => `127.0.0.1:${p}`).join(),
      EGRESS_PROXY: proxy.url,
    });
    const bad = await api(main.origin, `https://127.0.0.1:${secure.port}/`);
    assert.equal(bad.status, 502, JSON.stringify(bad.body));
    assert.equal(bad.body.code, "EFETCH");
    assert.match(bad.body.message ?? "", /TLS error/);
    await healthy(main.origin);
    const next = await api(main.origin, `http://127.0.0.1:${plain.port}/`);
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.data?.title, "through the tunnel");
    assert.ok(proxy.requestLines.includes("GET / HTTP/1.1"), "the next request crossed the proxy");
  });

  await t.step("through tinyproxy, the fetcher rejects with EFETCH and goes on", async () => {
    await using tiny = await startTinyproxy();
    const config = configFor([secure.port, plain.port, tiny.port]);
    const fetcher = new GuardedFetcher({ config, network });
    const spec = proxyOf(tiny.url);
    // As without a proxy.
    await assert.rejects(fetcher.fetch(`https://${SITE}:${secure.port}/`), isCode("EFETCH", /TLS/));
    await assert.rejects(
      fetcher.fetch(`https://${SITE}:${secure.port}/`, { proxy: spec }),
      isCode("EFETCH", /TLS error/),
    );
    const next = await fetcher.fetch(`http://${SITE}:${plain.port}/`, { proxy: spec });
    assert.equal(new TextDecoder().decode(next.body), PAGE);
  });
});

Deno.test("the page fetch and oEmbed really cross the proxy's tunnel", async (t) => {
  const { ca, cert, key } = await certsFor([SITE]);
  await using plain = site();
  await using secure = site({ cert, key });
  await using proxy = await startRecordingProxy("relay");
  const config = configFor([plain.port, secure.port, proxy.port]);
  const fetcher = new GuardedFetcher({ config, network, ca: [ca] });

  await t.step("proxy=: http and https pages, every byte through the tunnel", async () => {
    const spec = proxyOf(proxy.url);
    const http = await fetcher.fetch(`http://${SITE}:${plain.port}/page?a=1`, { proxy: spec });
    assert.equal(new TextDecoder().decode(http.body), PAGE);
    assert.deepEqual(proxy.requestLines, ["GET /page?a=1 HTTP/1.1"]);
    assert.equal(plain.last?.headers.host, `${SITE}:${plain.port}`);
    const downBefore = proxy.down();
    const https = await fetcher.fetch(`https://${SITE}:${secure.port}/`, { proxy: spec });
    assert.equal(new TextDecoder().decode(https.body), PAGE);
    // The TLS handshake and the encrypted answer came back through the tunnel.
    assert.ok(proxy.down() - downBefore > PAGE.length, `${proxy.down() - downBefore} bytes`);
    assert.deepEqual(proxy.connects, [`127.0.0.1:${plain.port}`, `127.0.0.1:${secure.port}`]);
    assert.equal(plain.hits + secure.hits, 2);
  });

  await t.step("EGRESS_PROXY: oEmbed goes through the tunnel too", async () => {
    const egress = new GuardedFetcher({
      config: { ...config, egressProxy: proxyOf(proxy.url) },
      network,
    });
    const iframe = await fetchIframe(`http://${SITE}:${plain.port}/oembed?url=x`, {
      fetcher: egress,
      headers: { "user-agent": "linkpeek-test" },
    });
    assert.equal(iframe?.html, "<p>embedded</p>");
    assert.equal(proxy.requestLines.at(-1), "GET /oembed?url=x HTTP/1.1");
  });

  await t.step("HEAD, a redirect and a gzip body keep their rules through the tunnel", async () => {
    await using zipped = serve({
      "/moved": () => new Response(null, { status: 302, headers: { location: "/gz" } }),
      "/gz": () =>
        new Response(
          new Blob([PAGE]).stream().pipeThrough(new CompressionStream("gzip")),
          { headers: { "content-encoding": "gzip", "content-type": "text/html" } },
        ),
    });
    const spec = proxyOf(proxy.url);
    const through = new GuardedFetcher({ config: configFor([zipped.port, proxy.port]), network });
    const result = await through.fetch(`http://${SITE}:${zipped.port}/moved`, { proxy: spec });
    assert.equal(new TextDecoder().decode(result.body), PAGE);
    assert.equal(result.redirects.length, 1);
    const capped = await through.fetch(`http://${SITE}:${zipped.port}/gz`, {
      proxy: spec,
      maxBytes: 5,
    });
    assert.equal(capped.truncated, true);
    assert.equal(new TextDecoder().decode(capped.body), PAGE.slice(0, 5));
    const head = await through.fetch(`http://${SITE}:${zipped.port}/gz`, {
      proxy: spec,
      method: "HEAD",
    });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body.length, 0);
    assert.deepEqual(proxy.requestLines.slice(-4), [
      "GET /moved HTTP/1.1",
      "GET /gz HTTP/1.1",
      "GET /gz HTTP/1.1",
      "HEAD /gz HTTP/1.1",
    ]);
  });
});

Deno.test("the fetch deadline cuts a body that stalls inside the tunnel", async () => {
  const stalled = new AbortController();
  await using target = serve(() =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("<title>half"));
          stalled.signal.addEventListener("abort", () => controller.close());
        },
      }),
      { headers: { "content-type": "text/html" } },
    )
  );
  await using proxy = await startRecordingProxy("relay");
  const config = configFor([target.port, proxy.port], { egressProxy: proxyOf(proxy.url) });
  try {
    await assert.rejects(
      new GuardedFetcher({ config, network }).fetch(`http://${SITE}:${target.port}/`, {
        timeoutMs: 1_500,
      }),
      isCode("ETIMEOUT", /timed out after 1500 ms/),
    );
    assert.deepEqual(proxy.requestLines, ["GET / HTTP/1.1"]);
  } finally {
    stalled.abort();
  }
});

Deno.test("a proxy that accepts and never answers is EPROXYFAILED before the deadline", async (t) => {
  await using target = site();
  await using proxy = await startRecordingProxy("silent");
  // The request's deadline under the 5 s connect timeout: today's handshake waited for it.
  const config = configFor([target.port, proxy.port], { fetchTimeoutMs: 4_000 });

  await t.step("a fetch through proxy=", async () => {
    await assert.rejects(
      new GuardedFetcher({ config, network }).fetch(`http://${SITE}:${target.port}/`, {
        proxy: proxyOf(proxy.url),
      }),
      isCode("EPROXYFAILED", /^The proxy "127\.0\.0\.1" did not answer in time\.$/),
    );
  });

  await t.step(
    "an API request with `timeout=4s` through EGRESS_PROXY answers EPROXYFAILED",
    async () => {
      // The fetch's own deadline (10 s) is not the request's: the bound holds under both.
      await using app = await testApp(
        configFor([target.port, proxy.port], { egressProxy: proxyOf(proxy.url) }),
        network,
      );
      const { status, body } = await app.json(q(`http://${SITE}:${target.port}/`, "&timeout=4s"));
      assert.equal(status, 502, JSON.stringify(body));
      assert.equal((body as Answer).code, "EPROXYFAILED");
    },
  );

  await t.step("a dial of the browser's egress proxy through EGRESS_PROXY", async () => {
    const egress = new GuardedFetcher({
      config: { ...config, egressProxy: proxyOf(proxy.url) },
      network,
    });
    await assert.rejects(
      egress.dial(SITE, target.port),
      isCode("EPROXYFAILED", /did not answer in time/),
    );
  });
  assert.equal(target.hits, 0);
});
