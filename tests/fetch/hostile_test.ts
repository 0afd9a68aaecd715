/**
 * Hostile targets, red-team style: each answer here once cost the service an event-loop stall,
 * its memory, a crash or an answer it had read. Raw loopback servers send the bytes; the
 * answer parser is also fed directly where what matters is its work per byte.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import zlib from "node:zlib";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { readBody } from "../../lib/fetch/body.ts";
import { answerParser } from "../../lib/fetch/http1.ts";
import { parseProxy } from "../../lib/fetch/proxy_client.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { testConfig } from "../_fixtures.ts";
import { flood, rawServer, replyWith } from "./_raw.ts";

/** A fetcher for the loopback `port`, with a deadline far longer than any answer here needs. */
function trusted(port: number, fetchTimeoutMs = 10_000) {
  return new GuardedFetcher({ config: testConfig({ trustPorts: [port], fetchTimeoutMs }) });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const isCode = (code: string, pattern?: RegExp) => (error: ApiError) => {
  assert.equal(error.code, code, error.message);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

Deno.test("a fold line of blanks costs the answer parser a pass, not a square", () => {
  // http-parser-js's obs-fold pattern backtracked over such a line: 0.2 s for 16 KB of
  // blanks, the event loop held, and a head could hold four of them per read. 32 heads took
  // the old parser about 8 s; read linearly they take milliseconds.
  const head = Buffer.from(
    `HTTP/1.1 200 OK\r\nX-Folded: a\r\n${" ".repeat(16_000)}\r\nContent-Length: 0\r\n\r\n`,
    "latin1",
  );
  const started = performance.now();
  for (let i = 0; i < 32; i++) {
    let folded: string | undefined;
    const reader = answerParser("GET", {
      head: ({ headers }) => void (folded = headers[1]),
      body: () => {},
      complete: () => {},
    });
    reader.feed(head);
    assert.equal(folded, "a");
  }
  const took = performance.now() - started;
  assert.ok(took < 2_000, `32 heads with a blank fold line took ${took.toFixed(0)} ms`);
});

Deno.test("heads, interim ones included, and chunk extensions share the 16 KB cap", async (t) => {
  await t.step("endless 100 Continue answers are EFETCH, not read until the deadline", async () => {
    const { server, sent } = flood("", "HTTP/1.1 100 Continue\r\n\r\n".repeat(2_600));
    await using site = await server;
    await assert.rejects(
      trusted(site.port).fetch(`${site.origin}/`),
      isCode("EFETCH", /invalid HTTP response/),
    );
    assert.ok(sent.bytes < 16 * 1024 * 1024, `the target sent ${sent.bytes} bytes`);
  });
  await t.step("endless chunk extensions are EFETCH, as in node:http", async () => {
    const { server, sent } = flood(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
      `1;${"x".repeat(16_000)}\r\na\r\n`,
    );
    await using site = await server;
    await assert.rejects(
      trusted(site.port).fetch(`${site.origin}/`),
      isCode("EFETCH", /invalid HTTP response/),
    );
    assert.ok(sent.bytes < 16 * 1024 * 1024, `the target sent ${sent.bytes} bytes`);
  });
  await using site = await replyWith((path) => {
    if (path === "/one-read") {
      // 60 KB of head in one write: the parser checked its own cap only between reads.
      return `HTTP/1.1 200 OK\r\n${"X-A: b\r\n".repeat(7_500)}Content-Length: 2\r\n\r\nok`;
    }
    if (path === "/after-interim") {
      // After an interim answer the parser's own cap was back to its default, 80 KB.
      return `HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\n${"X-A: b\r\n".repeat(5_000)}` +
        "Content-Length: 2\r\n\r\nok";
    }
    return "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" +
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  });
  const fetcher = trusted(site.port);
  for (const path of ["/one-read", "/after-interim"]) {
    await t.step(`${path}: a head over the cap is EFETCH`, async () => {
      await assert.rejects(
        fetcher.fetch(`${site.origin}${path}`),
        isCode("EFETCH", /invalid HTTP response/),
      );
    });
  }
  await t.step("an Early Hints answer, then the final one, is read", async () => {
    const result = await fetcher.fetch(`${site.origin}/hints`);
    assert.equal(text(result.body), "ok");
  });
});

Deno.test("an answer read to its end stands, whatever the target sends after it", async (t) => {
  // These bytes were parsed as the next answer's status line: the answer already read failed.
  const answers: Record<string, [string, string, string]> = {
    "HEAD answered with a body": [
      "HEAD",
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 14\r\n\r\n<html>\n</html>",
      "",
    ],
    "204 with a body": ["GET", "HTTP/1.1 204 No Content\r\n\r\n<html>\n</html>", ""],
    "lines after a sized body": [
      "GET",
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello<p>more</p>\r\n<p>than said</p>\r\n",
      "hello",
    ],
  };
  await using site = await replyWith((path) => answers[decodeURIComponent(path.slice(1))]![1]);
  const fetcher = trusted(site.port);
  for (const [name, [method, , body]] of Object.entries(answers)) {
    await t.step(name, async () => {
      const result = await fetcher.fetch(`${site.origin}/${encodeURIComponent(name)}`, {
        method: method as "GET" | "HEAD",
      });
      assert.equal(text(result.body), body);
    });
  }
});

Deno.test("a status under 100 or an unasked 101 is EFETCH at once", async (t) => {
  await using site = await rawServer((socket) => {
    socket.once("data", (request: Uint8Array) => {
      // Written, and the connection left open: the 101 was read past, the fetch waited.
      if (text(request).startsWith("GET /101 ")) {
        socket.write(
          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
            "Connection: upgrade\r\n\r\n",
        );
      } else socket.write("HTTP/1.1 000 Zero\r\nContent-Length: 2\r\n\r\nok");
    });
  });
  const fetcher = trusted(site.port, 30_000);
  for (const path of ["/101", "/000"]) {
    await t.step(path, async () => {
      await assert.rejects(
        fetcher.fetch(`${site.origin}${path}`),
        isCode("EFETCH", /invalid HTTP response/),
      );
    });
  }
});

Deno.test("a body in 1-byte chunks is handed on a read at a time, not a chunk at a time", () => {
  // A piece per chunk was a Uint8Array per body byte: the 5 MB cap cost 605 MB of memory.
  const pieces: number[] = [];
  const reader = answerParser("GET", {
    head: () => {},
    body: (bytes) => void pieces.push(bytes.length),
    complete: () => {},
  });
  reader.feed(Buffer.from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
  for (let read = 0; read < 4; read++) reader.feed(Buffer.from("1\r\na\r\n".repeat(10_000)));
  assert.equal(pieces.length, 4, `${pieces.length} pieces for 4 reads`);
  assert.deepEqual(pieces, [10_000, 10_000, 10_000, 10_000]);
});

Deno.test("a body read a byte at a time costs its bytes, not an array per byte", async () => {
  // A target writing one byte per packet is read a byte at a time. Each was kept as its own
  // array until the end: 2 MB of body held 260 MB of heap.
  const page = new Uint8Array(1 << 20).fill(0x61);
  async function* bytewise(count: number): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < count; i++) yield page.subarray(i % page.length, i % page.length + 1);
  }
  const before = Deno.memoryUsage().heapUsed;
  const result = await readBody(bytewise(2_000_001), {
    contentEncoding: undefined,
    maxBytes: 2_000_000,
  });
  const grown = Deno.memoryUsage().heapUsed - before;
  assert.equal(result.body.byteLength, 2_000_000);
  assert.equal(result.truncated, true);
  assert.ok(grown < 64 * 1024 * 1024, `the heap grew by ${(grown / 1024 / 1024).toFixed(0)} MB`);
});

Deno.test("a gzip page followed by stray bytes keeps the page it decoded", async () => {
  // Read as the start of a next gzip member, the stray bytes fail the decoder: what it had
  // decoded but not yet handed on was lost (EFETCH for a small page, the tail of a larger one).
  const page = Array.from({ length: 3_000 }, (_, i) => `<p>${i} ${Math.sin(i)}</p>`).join("");
  for (const size of [100, page.length]) {
    const gzipped = zlib.gzipSync(new TextEncoder().encode(page.slice(0, size)));
    const packets = async function* (): AsyncGenerator<Uint8Array> {
      yield gzipped;
      yield new TextEncoder().encode("<!-- appended after the gzip stream -->\n");
    };
    const result = await readBody(packets(), { contentEncoding: "gzip", maxBytes: 1_000_000 });
    assert.equal(text(result.body), page.slice(0, size));
  }
});

Deno.test("a malformed body in the tunnel's first packet is EFETCH, not a crash", async () => {
  // The proxy answers CONNECT and relays, in one write, a head and a chunk size of -5: the
  // body stream failed before anyone read it, and its unheard error ended the process.
  await using proxy = await rawServer((socket) => {
    socket.once("data", () => {
      socket.write(
        "HTTP/1.1 200 Connection established\r\n\r\n" +
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n",
      );
    });
  });
  const fetcher = trusted(proxy.port);
  const options = { proxy: parseProxy(proxy.origin, (why) => new Error(why)) };
  for (let i = 0; i < 3; i++) {
    await assert.rejects(
      fetcher.fetch(`${proxy.origin}/`, options),
      isCode("EFETCH", /invalid HTTP response/),
    );
  }
});

Deno.test("a compressed body cut short fails as an uncompressed one does", async (t) => {
  const page = new TextEncoder().encode(
    Array.from({ length: 3_000 }, (_, i) => `<p>${i} ${Math.sin(i)}</p>`).join(""),
  );
  const gzipped = zlib.gzipSync(page);
  const head = (extra: string) =>
    `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n${extra}\r\n`;
  await using site = await rawServer((socket) => {
    socket.once("data", (request: Uint8Array) => {
      if (text(request).startsWith("GET /short ")) {
        // Closed 2 KB into a body said to be longer, a moment later: by then the old reader had
        // decoded those 2 KB, and kept them as the page.
        socket.write(head(`Content-Length: ${gzipped.length}\r\n`));
        socket.write(gzipped.subarray(0, 2_000));
        const close = setTimeout(() => socket.end(), 200);
        socket.on("close", () => clearTimeout(close));
        return;
      }
      // 2 KB, then a byte now and then: past the deadline.
      socket.write(head(""));
      socket.write(gzipped.subarray(0, 2_000));
      let at = 2_000;
      const drip = setInterval(() => {
        if (socket.destroyed) clearInterval(drip);
        else socket.write(gzipped.subarray(at, ++at));
      }, 200);
      socket.on("close", () => clearInterval(drip));
    });
  });
  // These passed for the page, cut (truncated: true), while the same answers uncompressed
  // were the errors below.
  await t.step("shorter than its Content-Length: EFETCH", async () => {
    await assert.rejects(
      trusted(site.port).fetch(`${site.origin}/short`),
      isCode("EFETCH", /invalid HTTP response/),
    );
  });
  await t.step("still arriving at the deadline: ETIMEOUT", async () => {
    await assert.rejects(
      trusted(site.port, 1_000).fetch(`${site.origin}/drip`),
      isCode("ETIMEOUT", /after 1000 ms/),
    );
  });
});
