import assert from "node:assert/strict";
import zlib from "node:zlib";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { serve, testConfig, waitFor } from "../_fixtures.ts";

const MB = 1024 * 1024;

/** A body stream that produces `total` bytes of `chunk` on demand, counting what it gave. */
function counted(chunk: Uint8Array, total: number, meter: { sent: number; cancelled: boolean }) {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (meter.sent >= total) return controller.close();
      controller.enqueue(chunk);
      meter.sent += chunk.byteLength;
    },
    cancel() {
      meter.cancelled = true;
    },
  }, { highWaterMark: 0 });
}

Deno.test("fetch() reads 5 MB of a 50 MB page and closes the connection", async () => {
  const meter = { sent: 0, cancelled: false };
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  await using site = serve(() =>
    new Response(counted(chunk, 50 * MB, meter), {
      headers: { "content-type": "application/octet-stream" },
    })
  );
  const fetcher = new GuardedFetcher({ config: testConfig({ trustPorts: [site.port] }) });
  const result = await fetcher.fetch(`${site.origin}/big`);
  assert.equal(result.body.byteLength, 5 * MB);
  assert.equal(result.truncated, true);
  assert.equal(result.body.every((b) => b === 0x61), true);
  await waitFor(() => meter.cancelled, 3000);
  assert.equal(meter.cancelled, true, "the server never saw the connection close");
  assert.ok(meter.sent < 16 * MB, `server wrote ${meter.sent} bytes`);
});

Deno.test("fetch() stops a gzip bomb at the cap with bounded memory", async () => {
  // One gzip member of 64 MB of zeros, repeated 1024 times: 64 GiB decompressed, ~64 MB on
  // the wire, far more than socket buffers hold, so an early close is observable.
  const member = zlib.gzipSync(new Uint8Array(64 * MB), { level: 9 });
  const meter = { sent: 0, cancelled: false };
  await using site = serve(() =>
    new Response(counted(member, member.byteLength * 1024, meter), {
      headers: { "content-type": "text/html", "content-encoding": "gzip" },
    })
  );
  const fetcher = new GuardedFetcher({ config: testConfig({ trustPorts: [site.port] }) });
  const before = Deno.memoryUsage().rss;
  const result = await fetcher.fetch(`${site.origin}/bomb`, { maxBytes: 5 * MB });
  const grown = Deno.memoryUsage().rss - before;
  assert.equal(result.body.byteLength, 5 * MB);
  assert.equal(result.truncated, true);
  assert.equal(result.body.every((b) => b === 0), true);
  assert.ok(grown < 200 * MB, `rss grew by ${(grown / MB).toFixed(0)} MB`);
  await waitFor(() => meter.cancelled, 3000);
  assert.equal(meter.cancelled, true);
  assert.ok(meter.sent < 16 * MB, `server wrote ${meter.sent} bytes`);
});

Deno.test("fetch() decodes gzip, deflate, raw deflate and br", async (t) => {
  const text = "<html><title>compressed ✓</title></html>".repeat(50);
  const plain = new TextEncoder().encode(text);
  const variants: [string, string, Uint8Array][] = [
    ["gzip", "gzip", zlib.gzipSync(plain)],
    ["deflate (zlib)", "deflate", zlib.deflateSync(plain)],
    ["deflate (raw)", "deflate", zlib.deflateRawSync(plain)],
    ["br", "br", zlib.brotliCompressSync(plain)],
    ["gzip then br", "gzip, br", zlib.brotliCompressSync(zlib.gzipSync(plain))],
  ];
  const bodies = new Map(variants.map(([name, coding, bytes]) => [name, { coding, bytes }]));
  await using site = serve((req) => {
    const v = bodies.get(decodeURIComponent(new URL(req.url).pathname.slice(1)))!;
    return new Response(new Uint8Array(v.bytes), {
      headers: { "content-type": "text/html", "content-encoding": v.coding },
    });
  });
  const fetcher = new GuardedFetcher({ config: testConfig({ trustPorts: [site.port] }) });
  for (const [name] of variants) {
    await t.step(name, async () => {
      const result = await fetcher.fetch(`${site.origin}/${encodeURIComponent(name)}`);
      assert.equal(new TextDecoder().decode(result.body), text);
      assert.equal(result.truncated, false);
    });
  }
  await t.step("the cap applies after decompression", async () => {
    const result = await fetcher.fetch(`${site.origin}/gzip`, { maxBytes: 100 });
    assert.equal(result.body.byteLength, 100);
    assert.equal(result.truncated, true);
  });
  await t.step("an unknown coding is returned as sent", async () => {
    bodies.set("zstd", { coding: "zstd", bytes: new Uint8Array([1, 2, 3]) });
    const result = await fetcher.fetch(`${site.origin}/zstd`);
    assert.deepEqual([...result.body], [1, 2, 3]);
  });
  await t.step("a chain of more than three codings is returned as sent", async () => {
    // Each coding named is a decoder with its own window: a target names thousands.
    let bytes: Uint8Array = plain;
    for (let i = 0; i < 100; i++) bytes = zlib.gzipSync(bytes);
    bodies.set("chain", {
      coding: Array(100).fill("gzip").join(", "),
      bytes: new Uint8Array(bytes),
    });
    const result = await fetcher.fetch(`${site.origin}/chain`);
    assert.deepEqual(result.body, new Uint8Array(bytes));
    bodies.set("three", {
      coding: "gzip, gzip, gzip",
      bytes: zlib.gzipSync(zlib.gzipSync(zlib.gzipSync(plain))),
    });
    const three = await fetcher.fetch(`${site.origin}/three`);
    assert.equal(new TextDecoder().decode(three.body), text);
  });
  await t.step("corrupt gzip or br is EFETCH, and says so", async () => {
    bodies.set("bad", { coding: "gzip", bytes: new Uint8Array([0x1f, 0x8b, 9, 9, 9, 9]) });
    bodies.set("bad-br", { coding: "br", bytes: new TextEncoder().encode("not brotli at all") });
    for (const name of ["bad", "bad-br"]) {
      await assert.rejects(
        fetcher.fetch(`${site.origin}/${name}`),
        (e: ApiError) => e.code === "EFETCH" && /: corrupt compressed body\.$/.test(e.message),
      );
    }
  });
});

Deno.test("fetch() times out against slow targets", async (t) => {
  const timers = new Set<ReturnType<typeof setInterval>>();
  await using site = serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/silent") {
      // Never answers; gives up when the client goes away.
      return new Promise<Response>((resolve) => {
        req.signal.addEventListener("abort", () => resolve(new Response("late")));
      });
    }
    // Drips one byte a second, forever.
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([0x3c]));
        timer = setInterval(() => controller.enqueue(new Uint8Array([0x61])), 1000);
        timers.add(timer);
      },
      cancel() {
        clearInterval(timer);
        if (timer !== undefined) timers.delete(timer);
      },
    });
    return new Response(body, { headers: { "content-type": "application/octet-stream" } });
  });
  const fetcher = new GuardedFetcher({
    config: testConfig({ trustPorts: [site.port], fetchTimeoutMs: 1500 }),
  });

  // The message names the deadline that fired; the clock only checks it did not fire early.
  await t.step("a dripping body is ETIMEOUT at the deadline", async () => {
    const started = Date.now();
    await assert.rejects(fetcher.fetch(`${site.origin}/drip`), (e: ApiError) => {
      assert.equal(e.code, "ETIMEOUT");
      assert.match(e.message, /drip.*after 1500 ms/);
      return true;
    });
    const took = Date.now() - started;
    assert.ok(took >= 1400, `took ${took} ms`);
  });
  await t.step("no response headers is ETIMEOUT at the call's own deadline", async () => {
    await assert.rejects(
      fetcher.fetch(`${site.origin}/silent`, { timeoutMs: 500 }),
      (e: ApiError) => e.code === "ETIMEOUT" && / after 500 ms/.test(e.message),
    );
  });
  await t.step("the caller's signal ends the fetch", async () => {
    await assert.rejects(
      fetcher.fetch(`${site.origin}/drip`, { signal: AbortSignal.timeout(300) }),
      (e: ApiError) => e.code === "ETIMEOUT",
    );
  });
  await waitFor(() => timers.size === 0, 2000);
  assert.equal(timers.size, 0, "the dripping server still has a live connection");
});
