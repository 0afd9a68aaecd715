/**
 * Kept-alive connections of direct hops: real servers on loopback count the connections they
 * accept (Deno.serve by the client's port, a raw Deno.listen server by accept), so a reuse is
 * seen from the server's side. Each fetcher is closed at the end: the test sanitizer then proves
 * no socket or timer is left behind.
 */
import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { FetchOptions } from "../../lib/fetch/types.ts";
import { connectionCount, type PoolLimits } from "../../lib/fetch/pool.ts";
import { createServices } from "../../lib/services/mod.ts";
import {
  loopbackConnector,
  PUBLIC_IP,
  PUBLIC_IP_2,
  tableResolver,
  testConfig,
  waitFor,
} from "../_fixtures.ts";
import { certsFor } from "../extract/_certs.ts";

/** A Deno.serve server that tells its connections apart by the client's port. */
interface CountingServer extends AsyncDisposable {
  port: number;
  /** Client ports seen: one per connection accepted. */
  connections: Set<number>;
  requests: number;
  shutdown(): Promise<void>;
}

function countingServer(
  handler: (request: Request) => Response | Promise<Response> = () => new Response("ok"),
  options: { port?: number; tls?: { cert: string; key: string } } = {},
): CountingServer {
  const counted = { connections: new Set<number>(), requests: 0 } as CountingServer;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, ...options.tls, onListen() {} },
    (request, info) => {
      counted.connections.add(info.remoteAddr.port);
      counted.requests++;
      return handler(request);
    },
  );
  counted.port = server.addr.port;
  counted.shutdown = () => server.shutdown();
  counted[Symbol.asyncDispose] = () => server.shutdown();
  return counted;
}

/** site.test and alt.test on PUBLIC_IP, other.test on PUBLIC_IP_2: all onto `port`. */
function network(port: number) {
  return {
    resolver: tableResolver({
      "site.test": [PUBLIC_IP],
      "alt.test": [PUBLIC_IP],
      "other.test": [PUBLIC_IP_2],
    }),
    connector: loopbackConnector({ [PUBLIC_IP]: port, [PUBLIC_IP_2]: port }),
  };
}

/** A keep-alive fetcher onto `port` (held with `await using`: closed at the end of its scope). */
function keepAliveFetcher(
  port: number,
  extra: { ca?: string[]; limits?: Partial<PoolLimits> } = {},
): GuardedFetcher {
  return new GuardedFetcher({
    config: testConfig(),
    network: network(port),
    ca: extra.ca,
    keepAlive: extra.limits ?? true,
  });
}

const text = (body: Uint8Array) => new TextDecoder().decode(body);

Deno.test("keep-alive: requests to one address share one connection", async () => {
  await using server = countingServer((request) => new Response(new URL(request.url).pathname));
  await using fetcher = keepAliveFetcher(server.port);
  const first = new AbortController();
  assert.equal(
    text((await fetcher.fetch("http://site.test/a", { signal: first.signal })).body),
    "/a",
  );
  assert.equal(fetcher.idleConnections, 1);
  // The finished request's signal no longer reaches the connection it gave back.
  first.abort();
  await fetcher.fetch("http://site.test/b", { method: "HEAD" });
  // Another name on the same checked address: plain HTTP sends its own Host on the same socket.
  assert.equal(text((await fetcher.fetch("http://alt.test/c")).body), "/c");
  assert.equal(server.requests, 3);
  assert.equal(server.connections.size, 1);
  fetcher.close();
  assert.equal(fetcher.idleConnections, 0);
});

Deno.test("keep-alive: another checked address or TLS name gets its own connection", async (t) => {
  await t.step("a different pinned IP on the same port", async () => {
    await using server = countingServer();
    await using fetcher = keepAliveFetcher(server.port);
    await fetcher.fetch("http://site.test/");
    await fetcher.fetch("http://other.test/");
    await fetcher.fetch("http://site.test/");
    await fetcher.fetch("http://other.test/");
    assert.equal(server.requests, 4);
    assert.equal(server.connections.size, 2);
  });
  await t.step("https: one connection per server name, reused under the same CA", async () => {
    const { ca, cert, key } = await certsFor(["site.test", "alt.test"]);
    await using server = countingServer(
      (request) => new Response(new URL(request.url).host),
      { tls: { cert, key } },
    );
    await using fetcher = keepAliveFetcher(server.port, { ca: [ca] });
    assert.equal(text((await fetcher.fetch("https://site.test/")).body), "site.test");
    assert.equal(text((await fetcher.fetch("https://site.test/")).body), "site.test");
    assert.equal(server.connections.size, 1);
    // Same address, but the connection was verified for site.test: alt.test must not ride it.
    assert.equal(text((await fetcher.fetch("https://alt.test/")).body), "alt.test");
    assert.equal(text((await fetcher.fetch("https://alt.test/")).body), "alt.test");
    assert.equal(server.connections.size, 2);
  });
});

Deno.test("keep-alive: a body not read to its end closes its connection", async (t) => {
  const big = "x".repeat(200_000);
  let release = () => {};
  let stall: AbortController | null = null;
  await using server = countingServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/big") return new Response(big);
    if (path !== "/stall") return new Response("ok");
    // One chunk, then nothing until the client has gone: the fetch is aborted mid-body.
    let sent = false;
    const gate = new Promise<void>((resolve) => release = resolve);
    return new Response(
      new ReadableStream({
        async pull(controller) {
          if (!sent) {
            sent = true;
            return controller.enqueue(new TextEncoder().encode("first"));
          }
          stall?.abort();
          await gate;
          controller.close();
        },
        cancel: () => release(),
      }),
    );
  });
  const steps: [string, string, FetchOptions][] = [
    ["a body cut at maxBytes", "/big", { maxBytes: 1000 }],
    ["a body aborted while it arrives", "/stall", {}],
  ];
  for (const [name, path, options] of steps) {
    await t.step(name, async () => {
      server.connections.clear();
      await using fetcher = keepAliveFetcher(server.port);
      stall = new AbortController();
      const cut = fetcher.fetch(`http://site.test${path}`, { ...options, signal: stall.signal });
      if (path === "/big") assert.equal((await cut).truncated, true);
      else await assert.rejects(cut);
      release();
      assert.equal(fetcher.idleConnections, 0);
      // The next two requests: a new connection, then that one again.
      await fetcher.fetch("http://site.test/ok");
      await fetcher.fetch("http://site.test/ok");
      assert.equal(server.connections.size, 2);
    });
  }
});

Deno.test("keep-alive: a redirect's connection is kept only when its body was read", async () => {
  await using server = countingServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/final") return new Response("final");
    const body = path === "/moved-big" ? "x".repeat(200_000) : "moved";
    return new Response(body, { status: 302, headers: { location: "/final" } });
  });
  await using fetcher = keepAliveFetcher(server.port);
  assert.equal(text((await fetcher.fetch("http://site.test/moved")).body), "final");
  assert.equal(server.connections.size, 1);
  // A redirect body still arriving is not drained: that connection closes, the next hop dials.
  assert.equal(text((await fetcher.fetch("http://site.test/moved-big")).body), "final");
  assert.equal(server.connections.size, 2);
  assert.equal(server.requests, 4);
});

Deno.test("keep-alive: an answer with connection: close is not kept", async () => {
  await using server = countingServer((request) =>
    new URL(request.url).pathname === "/close"
      ? new Response("bye", { headers: { connection: "close" } })
      : new Response("ok")
  );
  await using fetcher = keepAliveFetcher(server.port);
  assert.equal(text((await fetcher.fetch("http://site.test/close")).body), "bye");
  assert.equal(fetcher.idleConnections, 0);
  await fetcher.fetch("http://site.test/ok");
  await fetcher.fetch("http://site.test/ok");
  assert.equal(server.requests, 3);
  assert.equal(server.connections.size, 2);
});

/**
 * A raw HTTP/1.1 server whose answers are scripted by path: a clean answer, one with bytes after
 * its end, an HTTP/1.0 one, a 204, one after which the connection's next request is read but never
 * answered (the connection closes), a HEAD answer whose body is sent late, before the next
 * answer, and one framed both by chunks and a length; any other path is answered with itself. It reads request heads one after another on each connection
 * it accepts; `sayToIdle` and `hangUp` act on its open connections between requests.
 */
function scriptedServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const heads: string[] = [];
  let accepted = 0;
  const answers: Record<string, string> = {
    "/clean": "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok",
    "/extra": "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokEXTRA",
    "/http10": "HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok",
    "/no-content": "HTTP/1.1 204 No Content\r\n\r\n",
    "/then-hang-up": "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok",
    "/body-late": "HTTP/1.1 200 OK\r\ncontent-length: 14\r\n\r\n",
    "/two-framings":
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 9\r\n\r\n2\r\nok\r\n0\r\n\r\n",
  };
  const serveConn = async (conn: Deno.Conn) => {
    const buffer = new Uint8Array(16 * 1024);
    let pending = "";
    let hangUpNext = false;
    let owed = "";
    try {
      for (;;) {
        const read = await conn.read(buffer);
        if (read === null) break;
        pending += new TextDecoder().decode(buffer.subarray(0, read));
        for (let end = pending.indexOf("\r\n\r\n"); end >= 0; end = pending.indexOf("\r\n\r\n")) {
          const head = pending.slice(0, end);
          pending = pending.slice(end + 4);
          heads.push(head);
          // Closed after the request arrived: the client cannot have known before sending it.
          if (hangUpNext) throw new Error("closing");
          const path = head.split(" ")[1]!;
          const answer = answers[path] ??
            `HTTP/1.1 200 OK\r\ncontent-length: ${path.length}\r\n\r\n${path}`;
          await conn.write(new TextEncoder().encode(owed + answer));
          hangUpNext = path === "/then-hang-up";
          owed = path === "/body-late" ? "<html>\n</html>" : "";
        }
      }
    } catch {
      // the connection is over
    } finally {
      if (open.delete(conn)) conn.close();
    }
  };
  const serving: Promise<void>[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      accepted++;
      open.add(conn);
      serving.push(serveConn(conn));
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    heads,
    get accepted() {
      return accepted;
    },
    /** Writes `bytes` on every open connection (answered, so idle), unasked; then may close. */
    async sayToIdle(bytes: string, close = false) {
      for (const conn of open) {
        await conn.write(new TextEncoder().encode(bytes));
        if (close && open.delete(conn)) conn.close();
      }
    },
    /** Closes every open connection. */
    hangUp() {
      for (const conn of open) conn.close();
      open.clear();
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of open) conn.close();
      open.clear();
      await accepting.catch(() => {});
      await Promise.all(serving);
    },
  };
}

Deno.test("keep-alive: only a clean HTTP/1.1 end gives the connection back", async (t) => {
  await using server = scriptedServer();
  for (const path of ["/extra", "/http10", "/two-framings"]) {
    await t.step(path, async () => {
      await using fetcher = keepAliveFetcher(server.port);
      const before = server.accepted;
      assert.equal(text((await fetcher.fetch(`http://site.test${path}`)).body), "ok");
      assert.equal(fetcher.idleConnections, 0);
      // Then a clean answer on a new connection, kept and used again.
      await fetcher.fetch("http://site.test/clean");
      await fetcher.fetch("http://site.test/clean");
      assert.equal(server.accepted - before, 2);
    });
  }
});

Deno.test("keep-alive: a connection the server closed is retried once on a new one", async (t) => {
  await t.step("a server that closes when the next request arrives", async () => {
    await using server = scriptedServer();
    await using fetcher = keepAliveFetcher(server.port);
    const stale = connectionCount("stale");
    assert.equal(text((await fetcher.fetch("http://site.test/then-hang-up")).body), "ok");
    assert.equal(fetcher.idleConnections, 1);
    // Sent on the kept connection, which the server then closes unanswered: sent again.
    assert.equal(text((await fetcher.fetch("http://site.test/clean")).body), "ok");
    assert.equal(connectionCount("stale") - stale, 1);
    assert.equal(server.accepted, 2);
    assert.deepEqual(server.heads.map((head) => head.split(" ")[1]), [
      "/then-hang-up",
      "/clean",
      "/clean",
    ]);
    assert.doesNotMatch(server.heads[0]!, /connection: close/i);
  });
  await t.step("a HEAD answer's body sent late, before the next answer", async () => {
    await using server = scriptedServer();
    await using fetcher = keepAliveFetcher(server.port);
    const stale = connectionCount("stale");
    const head = await fetcher.fetch("http://site.test/body-late", { method: "HEAD" });
    assert.equal(head.headers["content-length"], "14");
    assert.equal(fetcher.idleConnections, 1);
    // The body comes first on the kept connection, where the next answer's head belongs: that
    // request failed (EFETCH); it is sent again on a new connection.
    assert.equal(text((await fetcher.fetch("http://site.test/clean")).body), "ok");
    assert.equal(connectionCount("stale") - stale, 1);
    assert.equal(server.accepted, 2);
  });
  await t.step("a Deno.serve target shut down while its connection waits", async () => {
    const first = countingServer();
    const port = first.port;
    await using fetcher = keepAliveFetcher(port);
    await fetcher.fetch("http://site.test/");
    assert.equal(fetcher.idleConnections, 1);
    // The server's shutdown does not wait on the idle connection held here.
    await first.shutdown();
    await using second = countingServer(() => new Response("second"), { port });
    assert.equal(text((await fetcher.fetch("http://site.test/")).body), "second");
    assert.equal(second.connections.size, 1);
  });
});

Deno.test("keep-alive: bytes sent on an idle connection never answer the next request", async (t) => {
  const unasked: [string, string, boolean][] = [
    [
      "a 408 on a connection left open",
      "HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n\r\n",
      false,
    ],
    ["a 408, then the close", "HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n\r\n", true],
    ["a body sent late after a bodiless answer", "stray body", false],
  ];
  for (const [name, bytes, close] of unasked) {
    await t.step(name, async () => {
      await using server = scriptedServer();
      await using fetcher = keepAliveFetcher(server.port, { limits: { idleMs: 60_000 } });
      const stale = connectionCount("stale");
      assert.equal((await fetcher.fetch("http://site.test/no-content")).statusCode, 204);
      assert.equal(fetcher.idleConnections, 1);
      // The answer was read and the connection is idle: these bytes answer nothing asked.
      await server.sayToIdle(bytes, close);
      assert.ok(await waitFor(() => fetcher.idleConnections === 0), "the idle connection dropped");
      assert.equal(connectionCount("stale") - stale, 1);
      server.heads.length = 0;
      assert.equal(text((await fetcher.fetch("http://site.test/second")).body), "/second");
      assert.equal(server.accepted, 2);
      assert.deepEqual(server.heads.map((head) => head.split(" ")[1]), ["/second"]);
    });
  }
});

Deno.test("keep-alive: a connection the server closes while idle leaves the pool", async (t) => {
  await t.step("plain HTTP", async () => {
    await using server = scriptedServer();
    await using fetcher = keepAliveFetcher(server.port, { limits: { idleMs: 60_000 } });
    await fetcher.fetch("http://site.test/clean");
    assert.equal(fetcher.idleConnections, 1);
    server.hangUp();
    assert.ok(await waitFor(() => fetcher.idleConnections === 0), "the closed connection dropped");
    // The next request dials at once: nothing is taken from the pool, so nothing is retried.
    const reused = connectionCount("reused");
    const stale = connectionCount("stale");
    assert.equal(text((await fetcher.fetch("http://site.test/clean")).body), "ok");
    assert.equal(connectionCount("reused"), reused);
    assert.equal(connectionCount("stale"), stale);
    assert.equal(server.accepted, 2);
    assert.equal(server.heads.length, 2);
  });
  await t.step("HTTPS: the idle read is a read of the TLS connection", async () => {
    const { ca, cert, key } = await certsFor(["site.test"]);
    const first = countingServer(() => new Response("first"), { tls: { cert, key } });
    const port = first.port;
    await using fetcher = keepAliveFetcher(port, { ca: [ca], limits: { idleMs: 60_000 } });
    assert.equal(text((await fetcher.fetch("https://site.test/")).body), "first");
    assert.equal(fetcher.idleConnections, 1);
    await first.shutdown();
    assert.ok(await waitFor(() => fetcher.idleConnections === 0), "the closed connection dropped");
    await using second = countingServer(() => new Response("second"), { port, tls: { cert, key } });
    const reused = connectionCount("reused");
    assert.equal(text((await fetcher.fetch("https://site.test/")).body), "second");
    assert.equal(connectionCount("reused"), reused);
    assert.equal(second.connections.size, 1);
  });
});

Deno.test("keep-alive: an idle connection is closed after the idle time", async () => {
  await using server = countingServer();
  await using fetcher = keepAliveFetcher(server.port, { limits: { idleMs: 50 } });
  await fetcher.fetch("http://site.test/");
  assert.equal(fetcher.idleConnections, 1);
  assert.ok(await waitFor(() => fetcher.idleConnections === 0));
  await fetcher.fetch("http://site.test/");
  assert.equal(server.connections.size, 2);
});

Deno.test("keep-alive: idle connections are bounded per key and in all", async () => {
  // Each answer waits until `together` requests are in: that many connections at once.
  let together = 1;
  let waiting: (() => void)[] = [];
  await using server = countingServer(async () => {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length < together) return;
      for (const go of waiting) go();
      waiting = [];
    });
    return new Response("ok");
  });
  await using fetcher = keepAliveFetcher(server.port, { limits: { perKey: 2, total: 3 } });
  const atOnce = (url: string, count: number) => {
    together = count;
    return Promise.all(Array.from({ length: count }, () => fetcher.fetch(url)));
  };
  await atOnce("http://site.test/", 3);
  assert.equal(server.connections.size, 3);
  assert.equal(fetcher.idleConnections, 2, "two kept for site.test, the third closed");
  await atOnce("http://other.test/", 2);
  assert.equal(server.connections.size, 5);
  assert.equal(fetcher.idleConnections, 3, "the least recently used (site.test's) closed");
  // site.test has one connection left: two at once reuse it and open one more.
  await atOnce("http://site.test/", 2);
  assert.equal(server.connections.size, 6);
  assert.equal(fetcher.idleConnections, 3);
  // Room made for a key's connection by closing that key's only other one: the new one is kept.
  await using single = keepAliveFetcher(server.port, { limits: { total: 1 } });
  together = 2;
  await Promise.all([single.fetch("http://site.test/"), single.fetch("http://site.test/")]);
  assert.equal(server.connections.size, 8);
  together = 1;
  await single.fetch("http://site.test/");
  assert.equal(server.connections.size, 8);
  assert.equal(single.idleConnections, 1);
});

Deno.test("keep-alive: the service's fetcher keeps connections, its close() ends them", async () => {
  await using server = countingServer();
  const config = testConfig();
  const services = await createServices(config, network(server.port));
  const reused = async () => {
    const text = await services.metrics.render({ browser: services.browser.stats() });
    return Number(/^linkpeek_fetch_connections_total\{kind="reused"\} (\d+)$/m.exec(text)?.[1]);
  };
  try {
    const before = await reused();
    await services.fetcher.fetch("http://site.test/");
    await services.fetcher.fetch("http://site.test/");
    assert.equal(server.connections.size, 1);
    assert.equal((services.fetcher as GuardedFetcher).idleConnections, 1);
    assert.equal(await reused() - before, 1, "/metrics counts the reuse");
  } finally {
    await services.close();
    await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
  }
  // The sanitizer checks no socket is left; the count says the pool is empty.
  assert.equal((services.fetcher as GuardedFetcher).idleConnections, 0);
});
