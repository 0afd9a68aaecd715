import assert from "node:assert/strict";
import { GuardedFetcher } from "../lib/fetch/mod.ts";
import { type PingOptions, resolveMedia } from "../lib/media/ping.ts";
import type { MediaField } from "../lib/util/payload_types.ts";
import * as fx from "./media/_fixtures.ts";
import { type Fixture, serve, testConfig } from "./_fixtures.ts";

interface File {
  body: Uint8Array;
  type: string;
  /** Answer HEAD with this status instead (e.g. 405). */
  headStatus?: number;
  /** Serve the whole body on GET even when a Range is asked (a server without ranges). */
  noRanges?: boolean;
  status?: number;
  /** Answer GET with this status (HEAD still succeeds). */
  getStatus?: number;
  delayMs?: number;
  /** Hold the request until this many are in flight at once (then never again). */
  heldUntilConcurrent?: number;
}

interface Server extends Fixture {
  /** Most requests in flight at once. */
  maxConcurrent: number;
}

function rangeResponse(file: File, range: string): Response {
  const size = file.body.length;
  const suffix = /^bytes=-(\d+)$/.exec(range);
  const span = /^bytes=(\d+)-(\d*)$/.exec(range);
  let start = 0;
  let end = size - 1;
  if (suffix) start = Math.max(0, size - Number(suffix[1]));
  else if (span) {
    start = Number(span[1]);
    if (span[2]) end = Math.min(end, Number(span[2]));
  }
  return new Response(file.body.slice(start, end + 1), {
    status: 206,
    headers: { "content-type": file.type, "content-range": `bytes ${start}-${end}/${size}` },
  });
}

/** A loopback file server that honours Range and records every request. */
function serveFiles(files: Record<string, File>): Server {
  let active = 0;
  const concurrent = Promise.withResolvers<void>();
  const server = serve(async (req) => {
    const url = new URL(req.url);
    const range = req.headers.get("range");
    active++;
    fixture.maxConcurrent = Math.max(fixture.maxConcurrent, active);
    try {
      const file = files[url.pathname];
      if (file?.heldUntilConcurrent) {
        if (fixture.maxConcurrent >= file.heldUntilConcurrent) concurrent.resolve();
        await concurrent.promise;
      }
      if (file?.delayMs) await new Promise((r) => setTimeout(r, file.delayMs));
      if (!file) return new Response("not found", { status: 404 });
      if (req.method === "HEAD") {
        const status = file.headStatus ?? file.status ?? 200;
        return new Response(null, {
          status,
          headers: status < 300
            ? { "content-type": file.type, "content-length": String(file.body.length) }
            : {},
        });
      }
      const status = file.getStatus ?? file.status;
      if (status && status >= 300) return new Response("no", { status });
      if (range && !file.noRanges) return rangeResponse(file, range);
      return new Response(file.body.slice(), { headers: { "content-type": file.type } });
    } finally {
      active--;
    }
  });
  const fixture = Object.assign(server, { maxConcurrent: 0 });
  return fixture;
}

function fetcherFor(...ports: number[]) {
  return new GuardedFetcher({ config: testConfig({ trustPorts: ports }) });
}

const ALL: Record<MediaField, boolean> = { image: true, logo: true, audio: true, video: true };
const NONE: Record<MediaField, string[]> = { image: [], logo: [], audio: [], video: [] };

function ping(
  server: Server,
  candidates: Partial<Record<MediaField, string[]>>,
  options: Partial<PingOptions> = {},
) {
  return resolveMedia({ ...NONE, ...candidates }, {
    fetcher: fetcherFor(server.port),
    verify: ALL,
    ...options,
  });
}

Deno.test("resolveMedia() fills type, size and dimensions per image format", async (t) => {
  const images: Record<string, [Uint8Array, string, number, number]> = {
    png: [fx.png(120, 63), "image/png", 120, 63],
    jpg: [fx.jpeg(64, 48, { exifPad: 20_000 }), "image/jpeg", 64, 48],
    gif: [fx.gif(12, 7), "image/gif", 12, 7],
    webp: [fx.webp("VP8", 1200, 630), "image/webp", 1200, 630],
    svg: [fx.svg('viewBox="0 0 300 150"'), "image/svg+xml", 300, 150],
    ico: [fx.ico([[16, 16], [0, 0]]), "image/x-icon", 256, 256],
    avif: [fx.avif(800, 600), "image/avif", 800, 600],
  };
  const files = Object.fromEntries(
    Object.entries(images).map(([name, [body, type]]) => [`/a.${name}`, { body, type }]),
  );
  await using server = serveFiles(files);
  for (const [name, [body, , width, height]] of Object.entries(images)) {
    await t.step(name, async () => {
      const url = `${server.origin}/a.${name}`;
      const result = await ping(server, { image: [url] });
      assert.deepEqual(result.image, {
        url,
        type: name,
        size: body.length,
        size_pretty: result.image?.size_pretty,
        width,
        height,
      });
      assert.match(result.image!.size_pretty!, /^\d+(\.\d+)? k?B$/);
      assert.equal(result.logo, null);
    });
  }
  // Every image took one HEAD and one ranged GET.
  assert.equal(server.seen.length, Object.keys(images).length * 2);
  const gets = server.seen.filter((s) => s.method === "GET");
  assert.ok(gets.every((s) => s.headers.range === "bytes=0-65535"), JSON.stringify(gets));
});

Deno.test("resolveMedia() fills audio and video durations", async (t) => {
  const mp3 = fx.mp3Cbr(300, 2000);
  const m4a = fx.mp4({ timescale: 44100, duration: 44100 * 61.5, brand: "M4A " });
  const late = fx.mp4({ timescale: 600, duration: 600 * 42, moovLast: true, mdatBytes: 300_000 });
  const webm = fx.webm({ duration: 8123 });
  const ogg = fx.ogg({ codec: "opus", preSkip: 312, lastGranule: 48000 * 95 + 312, pages: 40 });
  const wav = fx.wav(3);
  await using server = serveFiles({
    "/a.mp3": { body: mp3, type: "audio/mpeg" },
    "/a.m4a": { body: m4a, type: "video/mp4" }, // og:audio served with a video type
    "/late.mp4": { body: late, type: "video/mp4" },
    "/a.webm": { body: webm, type: "video/webm" },
    "/a.opus": { body: ogg, type: "audio/ogg" },
    "/a.wav": { body: wav, type: "audio/wav" },
  });
  const cases: [MediaField, string, string, number][] = [
    ["audio", "/a.mp3", "mp3", (300 * 417 * 8) / 128000],
    ["audio", "/a.m4a", "m4a", 61.5],
    ["video", "/late.mp4", "mp4", 42],
    ["video", "/a.webm", "webm", 8.123],
    ["audio", "/a.opus", "opus", 95],
    ["audio", "/a.wav", "wav", 3],
  ];
  for (const [field, path, type, seconds] of cases) {
    await t.step(`${type} in ${field}`, async () => {
      const result = await ping(server, { [field]: [server.origin + path] });
      const media = result[field];
      assert.ok(media, `${path} did not verify`);
      assert.equal(media.type, type);
      assert.ok(
        media.duration != null && Math.abs(media.duration - seconds) < 0.1,
        `${path}: ${media.duration} vs ${seconds}`,
      );
      assert.equal(typeof media.duration_pretty, "string");
      assert.ok(media.size! > 0);
    });
  }
  await t.step("the trailing moov was read with one more ranged GET", () => {
    const late = server.seen.filter((s) => s.path === "/late.mp4").map((s) =>
      s.headers.range ?? null
    );
    assert.equal(late.length, 3);
    assert.match(late[2]!, /^bytes=\d+-\d+$/);
  });
});

Deno.test("resolveMedia() drops failing candidates and tries the next", async (t) => {
  const png = fx.png(10, 20);
  await using server = serveFiles({
    "/page.html": { body: fx.latin1("<html></html>"), type: "text/html" },
    "/ok.png": { body: png, type: "image/png" },
    "/ok.mp3": { body: fx.mp3Cbr(10), type: "audio/mpeg" },
    "/boom.png": { body: png, type: "image/png", status: 500 },
  });
  await t.step("a 404 candidate is replaced by the next", async () => {
    const result = await ping(server, {
      image: [`${server.origin}/missing.png`, `${server.origin}/ok.png`],
    });
    assert.equal(result.image?.url, `${server.origin}/ok.png`);
    assert.equal(result.image?.height, 20);
  });
  await t.step("a wrong content type is dropped", async () => {
    const result = await ping(server, {
      image: [`${server.origin}/page.html`, `${server.origin}/ok.mp3`, `${server.origin}/ok.png`],
      video: [`${server.origin}/ok.mp3`],
    });
    assert.equal(result.image?.url, `${server.origin}/ok.png`);
    assert.equal(result.video, null);
  });
  await t.step("5xx, non-http and unparsable candidates leave the field null", async () => {
    const result = await ping(server, {
      image: [`${server.origin}/boom.png`, "data:image/png;base64,AAAA", "::"],
    });
    assert.equal(result.image, null);
  });
  await t.step("at most 3 candidates are tried", async () => {
    const before = server.seen.length;
    const result = await ping(server, {
      image: ["/m1", "/m2", "/m3", "/ok.png"].map((p) => server.origin + p),
    });
    assert.equal(result.image, null);
    assert.deepEqual(server.seen.slice(before).map((s) => s.path), ["/m1", "/m2", "/m3"]);
  });
});

Deno.test("resolveMedia() drops a forbidden address without touching it", async () => {
  await using canary = serveFiles({ "/x.png": { body: fx.png(5, 5), type: "image/png" } });
  await using server = serveFiles({ "/ok.png": { body: fx.png(7, 7), type: "image/png" } });
  // Only `server` is trusted: the canary's port is a forbidden loopback address.
  const result = await ping(server, {
    image: [`${canary.origin}/x.png`, `${server.origin}/ok.png`],
    logo: [`http://[::1]:${canary.port}/x.png`, `http://127.0.0.2:${canary.port}/x.png`],
  });
  assert.equal(canary.seen.length, 0);
  assert.equal(result.image?.url, `${server.origin}/ok.png`);
  assert.equal(result.logo, null);
});

Deno.test("resolveMedia() makes at most 16 probes per request", async () => {
  // HEAD and GET both refused: every candidate costs two probes, 24 wanted.
  const refused: File = { body: fx.png(1, 1), type: "image/png", status: 403 };
  const files: Record<string, File> = {};
  const candidates: Record<MediaField, string[]> = { image: [], logo: [], audio: [], video: [] };
  await using server = serveFiles(files);
  for (const field of Object.keys(candidates) as MediaField[]) {
    for (let i = 0; i < 3; i++) {
      files[`/${field}${i}`] = refused;
      candidates[field].push(`${server.origin}/${field}${i}`);
    }
  }
  const result = await ping(server, candidates);
  assert.deepEqual(result, { image: null, logo: null, audio: null, video: null });
  assert.equal(server.seen.length, 16);
});

Deno.test("resolveMedia() leaves verify=false fields unprobed", async () => {
  await using server = serveFiles({ "/a.mp3": { body: fx.mp3Cbr(5), type: "audio/mpeg" } });
  const result = await ping(server, {
    audio: [`${server.origin}/missing.mp3`, `${server.origin}/a.mp3`],
    image: [`${server.origin}/nothing-here.JPEG?x=1`],
    video: [],
  }, {
    verify: { image: false, logo: false, audio: false, video: false },
    pageUrl: server.origin + "/",
  });
  assert.equal(server.seen.length, 0);
  assert.deepEqual(result, {
    image: {
      url: `${server.origin}/nothing-here.JPEG?x=1`,
      type: "jpg",
      size: null,
      size_pretty: null,
      width: null,
      height: null,
    },
    logo: null,
    audio: {
      url: `${server.origin}/missing.mp3`,
      type: "mp3",
      size: null,
      size_pretty: null,
      width: null,
      height: null,
      duration: null,
      duration_pretty: null,
    },
    video: null,
  });
});

Deno.test("resolveMedia() falls back to a ranged GET where HEAD is refused", async (t) => {
  const png = fx.png(33, 44);
  await using server = serveFiles({
    "/405.png": { body: png, type: "image/png", headStatus: 405 },
    "/403.png": { body: png, type: "image/png", headStatus: 403 },
    "/norange.png": { body: png, type: "image/png", headStatus: 501, noRanges: true },
  });
  for (const path of ["/405.png", "/403.png", "/norange.png"]) {
    await t.step(path, async () => {
      const before = server.seen.length;
      const result = await ping(server, { image: [server.origin + path] });
      assert.deepEqual(
        [result.image?.width, result.image?.height, result.image?.size, result.image?.type],
        [33, 44, png.length, "png"],
      );
      assert.deepEqual(server.seen.slice(before).map((s) => [s.method, s.headers.range ?? null]), [
        ["HEAD", null],
        ["GET", "bytes=0-65535"],
      ]);
    });
  }
});

Deno.test("resolveMedia() sniffs application/octet-stream", async () => {
  await using server = serveFiles({
    "/blob1": { body: fx.gif(9, 8), type: "application/octet-stream" },
    "/blob2": { body: fx.latin1("<html>hi</html>"), type: "application/octet-stream" },
  });
  const result = await ping(server, {
    image: [`${server.origin}/blob2`, `${server.origin}/blob1`],
  });
  assert.deepEqual([result.image?.url, result.image?.type, result.image?.width], [
    `${server.origin}/blob1`,
    "gif",
    9,
  ]);
});

Deno.test("resolveMedia() appends the site's favicon to logo candidates", async () => {
  await using server = serveFiles({
    "/favicon.ico": { body: fx.ico([[32, 32]]), type: "image/vnd.microsoft.icon" },
  });
  const result = await ping(server, {
    logo: [`${server.origin}/l1.png`, `${server.origin}/l2.png`, `${server.origin}/l3.png`],
  }, { pageUrl: `${server.origin}/some/page?q=1` });
  assert.deepEqual([result.logo?.url, result.logo?.type, result.logo?.width], [
    `${server.origin}/favicon.ico`,
    "ico",
    32,
  ]);
  assert.deepEqual([...new Set(server.seen.map((s) => s.path))], [
    "/l1.png",
    "/l2.png",
    "/favicon.ico",
  ]);
});

Deno.test("resolveMedia() never probes linkpeek's own assets", async () => {
  await using server = serveFiles({});
  const own = `${server.origin}/assets/abc.png`;
  const result = await ping(server, { image: [own] }, { skipPrefix: `${server.origin}/assets/` });
  assert.equal(result.image?.url, own);
  assert.equal(result.image?.type, "png");
  assert.equal(server.seen.length, 0);
});

Deno.test("resolveMedia() adds the palette of image and logo", async () => {
  const twoColours = fx.png(300, 200, (x) => x < 200 ? [255, 255, 255] : [10, 90, 40]);
  await using server = serveFiles({ "/p.png": { body: twoColours, type: "image/png" } });
  const result = await ping(server, { image: [`${server.origin}/p.png`] }, { palette: true });
  assert.ok(result.image);
  assert.deepEqual(result.image.palette, ["#ffffff", "#0a5a28"]);
  assert.equal(result.image.background_color, "#ffffff");
  assert.equal(result.image.color, "#0a5a28");
  assert.equal(result.image.width, 300);
  // The palette needs the whole image: no Range on the GET.
  assert.deepEqual(server.seen.map((s) => [s.method, s.headers.range ?? null]), [["HEAD", null], [
    "GET",
    null,
  ]]);
});

Deno.test("resolveMedia() runs at most 3 probes at once per host", async () => {
  // The first three probes are held until all three are in flight: a fourth would be seen.
  const slow: File = { body: fx.png(2, 2), type: "image/png", heldUntilConcurrent: 3 };
  await using server = serveFiles({ "/1": slow, "/2": slow, "/3": slow, "/4": slow });
  const result = await ping(server, {
    image: [`${server.origin}/1`],
    logo: [`${server.origin}/2`],
    audio: [],
    video: [`${server.origin}/3`, `${server.origin}/4`],
  });
  assert.equal(result.image?.width, 2);
  assert.equal(result.logo?.width, 2);
  assert.equal(result.video, null); // a PNG is not a video
  assert.equal(server.maxConcurrent, 3);
});

Deno.test("resolveMedia() stops at the request deadline without throwing", async () => {
  const stuck: File = { body: fx.png(2, 2), type: "image/png", delayMs: 2000 };
  await using server = serveFiles({ "/slow.png": stuck });
  const started = performance.now();
  const result = await ping(server, { image: [`${server.origin}/slow.png`] }, {
    signal: AbortSignal.timeout(200),
  });
  assert.equal(result.image, null);
  // The target answers at 2 s: ending well before it means the 200 ms deadline ended the probe.
  assert.ok(performance.now() - started < 1500, `took ${performance.now() - started} ms`);
});

Deno.test("resolveMedia() keeps a HEAD-verified candidate whose GET fails", async () => {
  const png = fx.png(4, 4);
  await using server = serveFiles({ "/h.png": { body: png, type: "image/png", getStatus: 503 } });
  const result = await ping(server, { logo: [`${server.origin}/h.png`] }, { palette: true });
  assert.deepEqual(result.logo, {
    url: `${server.origin}/h.png`,
    type: "png",
    size: png.length,
    size_pretty: `${png.length} B`,
    width: null,
    height: null,
    palette: [],
    background_color: null,
    color: null,
    alternative_color: null,
  });
});
