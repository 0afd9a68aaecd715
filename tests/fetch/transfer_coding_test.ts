/**
 * Transfer codings (RFC 9112, 6.1): chunked last frames the body and the codings before it are
 * undone inside the chunks; without chunked last the body is read to the connection's close,
 * under the body cap; codings that cannot be undone are EFETCH. Raw loopback servers send the
 * bytes, through a proxy's tunnel too.
 */
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { Buffer } from "node:buffer";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { parseProxy } from "../../lib/fetch/proxy_client.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { testConfig } from "../_fixtures.ts";
import { flood, rawServer } from "./_raw.ts";

const page = Array.from({ length: 2_000 }, (_, i) => `<p>${i} ${Math.sin(i)}</p>`).join("");
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** `bytes` as chunks of at most 1000 bytes, then the last chunk. */
function chunked(bytes: Uint8Array): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 1_000) {
    const piece = bytes.subarray(at, at + 1_000);
    parts.push(
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      Buffer.from(piece),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

const gzipped = zlib.gzipSync(new TextEncoder().encode(page));

/**
 * The answers by path. None closes the connection unless `close`: a body read to the close that
 * should have ended with its last chunk waits for the deadline.
 */
const answers: Record<string, { head: string; body: Uint8Array; close?: boolean }> = {
  "/gzip-chunked": { head: "Transfer-Encoding: gzip, chunked\r\n", body: chunked(gzipped) },
  "/two-lines": {
    head: "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
    body: chunked(gzipped),
  },
  "/deflate-over-gzip-content": {
    head: "Content-Encoding: gzip\r\nTransfer-Encoding: deflate, chunked\r\n",
    body: chunked(zlib.deflateSync(gzipped)),
  },
  "/gzip-to-close": {
    // The Content-Length is overridden by the Transfer-Encoding: 5 bytes framed a cut gzip.
    head: "Transfer-Encoding: gzip\r\nContent-Length: 5\r\n",
    body: gzipped,
    close: true,
  },
  "/compress-chunked": { head: "Transfer-Encoding: compress, chunked\r\n", body: chunked(gzipped) },
  "/chunked-twice": {
    head: "Transfer-Encoding: chunked, chunked\r\n",
    body: chunked(chunked(new TextEncoder().encode(page))),
  },
  "/chunked-then-gzip": {
    head: "Transfer-Encoding: chunked, gzip\r\n",
    body: zlib.gzipSync(chunked(new TextEncoder().encode(page))),
    close: true,
  },
};

/** Answers each request on a connection by its path, keeping the connection unless `close`. */
function codingServer() {
  return rawServer((socket) => {
    let head = "";
    socket.on("data", (chunk: Uint8Array) => {
      head += new TextDecoder().decode(chunk);
      while (head.includes("\r\n\r\n")) {
        const path = head.split(" ")[1] ?? "/";
        head = head.slice(head.indexOf("\r\n\r\n") + 4);
        const answer = answers[path];
        if (!answer) return socket.destroy();
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n${answer.head}\r\n`);
        socket.write(answer.body);
        if (answer.close) socket.end();
      }
    });
  });
}

function fetcherFor(port: number, keepAlive = false) {
  return new GuardedFetcher({
    config: testConfig({ trustPorts: [port], fetchTimeoutMs: 10_000 }),
    keepAlive,
  });
}

const unsupported = (e: ApiError) => {
  assert.equal(e.code, "EFETCH", e.message);
  assert.match(e.message, /invalid HTTP response \(unsupported transfer coding\)/);
  return true;
};

Deno.test("codings before a final chunked are undone inside the chunks", async (t) => {
  await using site = await codingServer();
  await using fetcher = fetcherFor(site.port, true);
  for (const path of ["/gzip-chunked", "/two-lines", "/deflate-over-gzip-content"]) {
    await t.step(path, async () => {
      // Read to the close, this waited for the deadline (ETIMEOUT), and a target that closed
      // had its chunk lines and gzip bytes taken for the page.
      const result = await fetcher.fetch(`${site.origin}${path}`);
      assert.equal(text(result.body), page);
      assert.equal(result.truncated, false);
      // Framed by its chunks, the answer ended cleanly: its connection is kept.
      assert.equal(fetcher.idleConnections, 1);
    });
  }
});

Deno.test("a Transfer-Encoding without chunked last is read to the close", async (t) => {
  await using site = await codingServer();
  await using fetcher = fetcherFor(site.port, true);
  await t.step("decoded, over a Content-Length", async () => {
    const result = await fetcher.fetch(`${site.origin}/gzip-to-close`);
    assert.equal(text(result.body), page);
    assert.equal(fetcher.idleConnections, 0);
  });
  await t.step("under the body cap, the connection closed", async () => {
    // Gzip members one after another, without end: the cap stops the read.
    const member = zlib.gzipSync(new TextEncoder().encode("<p>again</p>".repeat(1_000)));
    const { server, sent } = flood(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: gzip\r\n\r\n",
      member,
    );
    await using endless = await server;
    await using capped = fetcherFor(endless.port, true);
    const result = await capped.fetch(`${endless.origin}/`, { maxBytes: 100_000 });
    assert.equal(result.truncated, true);
    assert.equal(result.body.length, 100_000);
    assert.equal(text(result.body.subarray(0, 24)), "<p>again</p><p>again</p>");
    assert.equal(capped.idleConnections, 0);
    assert.ok(sent.bytes < 16 * 1024 * 1024, `the target sent ${sent.bytes} bytes`);
  });
});

Deno.test("transfer codings that cannot be undone are EFETCH", async (t) => {
  await using site = await codingServer();
  const fetcher = fetcherFor(site.port);
  for (const path of ["/compress-chunked", "/chunked-twice", "/chunked-then-gzip"]) {
    await t.step(path, async () => {
      await assert.rejects(fetcher.fetch(`${site.origin}${path}`), unsupported);
    });
  }
  await t.step("but an answer without a body has none to undo", async () => {
    const result = await fetcher.fetch(`${site.origin}/compress-chunked`, { method: "HEAD" });
    assert.equal(result.statusCode, 200);
    assert.equal(result.body.length, 0);
  });
});

Deno.test("a proxy's tunnel reads transfer codings as a direct hop does", async () => {
  // The proxy answers CONNECT, then plays the target on the same socket.
  await using proxy = await rawServer((socket) => {
    socket.once("data", () => {
      socket.write("HTTP/1.1 200 Connection established\r\n\r\n");
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n");
        socket.write(chunked(gzipped));
      });
    });
  });
  const fetcher = fetcherFor(proxy.port);
  const options = { proxy: parseProxy(proxy.origin, (why) => new Error(why)) };
  const result = await fetcher.fetch(`${proxy.origin}/`, options);
  assert.equal(text(result.body), page);
});
