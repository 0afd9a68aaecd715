/**
 * Hostile pages against the browser pool, in real Chromium: each gets a bounded answer, and an
 * ordinary visit right after it is served by the same browser with no tab left over.
 */
import assert from "node:assert/strict";
import { html, serve, testConfig } from "../_fixtures.ts";
import { decode, poolFor } from "./_helpers.ts";
import { MAX_CAPTURE_PIXELS, MAX_CAPTURE_SIDE } from "../../lib/browser/capture.ts";
import type { BrowserPool } from "../../lib/browser/mod.ts";
import { MAX_PDF_PAGES } from "../../lib/browser/pdf_pages.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

const OK_PAGE = "<!doctype html><title>ok</title><p>ok</p>";

/** An ordinary visit works after a hostile one, on the same browser, and nothing is left open. */
async function stillServes(pool: BrowserPool, origin: string): Promise<void> {
  const launches = pool.stats().launches;
  const result = await pool.visit(`${origin}/ok`, { screenshot: true, timeoutMs: 15_000 });
  assert.equal(result.screenshot!.width, 2560);
  await pool.settled();
  const stats = pool.stats();
  assert.equal(stats.launches, launches, "the browser was not replaced");
  assert.equal(stats.contexts, 0, "no visit's context is left open");
  assert.equal(stats.inUse, 0);
}

Deno.test("a capture of a page or element 100,000 px tall or wide is bounded, not gigapixels", async () => {
  const paint = "background:linear-gradient(red,blue)";
  await using site = serve({
    "/ok": () => html(OK_PAGE),
    "/tall": () => html(`<body style="margin:0"><div style="height:100000px;${paint}"></div>`),
    "/huge": () =>
      html(`<body style="margin:0"><div style="width:100000px;height:100000px;${paint}"></div>`),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const captures = [
    ["/tall", { fullPage: true }],
    ["/huge", { fullPage: true }],
    ["/tall", { element: "div" }],
  ] as const;
  for (const [path, screenshot] of captures) {
    const shot = (await pool.visit(`${site.origin}${path}`, { screenshot, timeoutMs: 20_000 }))
      .screenshot!;
    assert.ok(shot.width <= MAX_CAPTURE_SIDE && shot.height <= MAX_CAPTURE_SIDE, path);
    assert.ok(
      shot.width * shot.height <= MAX_CAPTURE_PIXELS,
      `${path}: ${shot.width}x${shot.height}`,
    );
    // Still a full-page capture as far as it goes: far past the 1600-pixel-tall viewport.
    assert.ok(shot.height >= 16_000, `${path}: ${shot.height}`);
    const image = decode(shot.bytes);
    assert.equal(image.height, shot.height);
    const [r, , b] = image.pixel(0, image.height - 1);
    assert.ok(r > 0 || b > 0, "the capture's last row is the page, painted");
  }
  await stillServes(pool, site.origin);
});

Deno.test("a page logging 300,000 console lines loads in time", async () => {
  const levels = ["log", "info", "warn", "error", "debug"];
  const flood = `<script>for (let i = 0; i < 300000; i++) console[${
    JSON.stringify(levels)
  }[i % 5]]("line", i, { i })</script><p id=done>done</p>`;
  await using site = serve({ "/ok": () => html(OK_PAGE), "/flood": () => html(flood) });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const result = await pool.visit(`${site.origin}/flood`, { html: true, timeoutMs: 15_000 });
  assert.match(result.html!, /<p id="done">done<\/p>/);
  await stillServes(pool, site.origin);
});

Deno.test("a page throwing uncaught errors and rejections without end still loads in time", async () => {
  const storm = `<script>setInterval(() => { for (let i = 0; i < 5000; i++) {
    setTimeout(() => { throw new Error("e") }); Promise.reject(new Error("r")) } }, 0)
    </script><p id=done>done</p>`;
  await using site = serve({ "/ok": () => html(OK_PAGE), "/storm": () => html(storm) });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  // About a second without the storm's error reports; 11 s with them.
  const result = await pool.visit(`${site.origin}/storm`, { screenshot: true, timeoutMs: 8_000 });
  assert.equal(result.screenshot!.width, 2560);
  await stillServes(pool, site.origin);
});

Deno.test("a function throwing what cannot be read as text is a rejection with a message", async () => {
  await using site = serve({ "/ok": () => html(OK_PAGE) });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const thrown = {
    "Object.create(null)": "[object Object]",
    "{ get name() { throw 1 }, get message() { throw 2 }, toString() { throw 3 } }":
      "[object Object]",
    "Symbol('odd')": "Symbol(odd)",
  };
  for (const [value, message] of Object.entries(thrown)) {
    const result = await pool.visit(`${site.origin}/ok`, {
      function: { source: `() => { throw ${value} }`, argument: {} },
      timeoutMs: 15_000,
    });
    assert.equal(result.function!.isRejected, true, value);
    assert.deepEqual(result.function!.value, { name: "Error", message }, value);
  }
  await stillServes(pool, site.origin);
});

Deno.test("caller code that never settles times out with a whole number of milliseconds", async () => {
  await using site = serve({ "/ok": () => html(OK_PAGE) });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const never = "new Promise(() => {})";
  const evaluated = await pool.visit(`${site.origin}/ok`, { evaluate: [never], timeoutMs: 3_000 });
  const ran = await pool.visit(`${site.origin}/ok`, {
    function: { source: `() => ${never}`, argument: {} },
    timeoutMs: 3_000,
  });
  for (const answer of [evaluated.evaluated![0]!, ran.function!]) {
    const value = answer.value as { name: string; message: string };
    assert.equal(value.name, "TimeoutError");
    assert.match(value.message, /^The code did not finish within \d+ ms\.$/);
  }
  await stillServes(pool, site.origin);
});

Deno.test("a history flood (a million pushState calls) does not take the browser down", async () => {
  const flood = "<script>for (let i = 0; i < 1e6; i++) history.pushState({}, '', '/p' + i)" +
    "</script><p>flooded</p>";
  await using site = serve({ "/ok": () => html(OK_PAGE), "/flood": () => html(flood) });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  assert.equal(await pool.ready(), true);
  const result = await pool.visit(`${site.origin}/flood`, { screenshot: true, timeoutMs: 15_000 });
  assert.equal(result.screenshot!.width, 2560);
  await stillServes(pool, site.origin);
});

Deno.test("a function's full-page screenshot of a page 100,000 px tall is bounded too", async () => {
  const paint = "background:linear-gradient(red,blue)";
  await using site = serve({
    "/ok": () => html(OK_PAGE),
    "/tall": () => html(`<body style="margin:0"><div style="height:100000px;${paint}"></div>`),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  // The PNG's own header: its height, a big-endian number at bytes 20-23.
  const source = "async ({ page }) => { const png = await page.screenshot({ fullPage: true }); " +
    "return new DataView(png.buffer).getUint32(20) }";
  const result = await pool.visit(`${site.origin}/tall`, {
    function: { source, argument: {} },
    timeoutMs: 25_000,
  });
  assert.equal(result.function!.isFulfilled, true, JSON.stringify(result.function!.value));
  const height = result.function!.value as number;
  assert.ok(height >= 16_000 && height <= MAX_CAPTURE_SIDE, `${height}`);
  await stillServes(pool, site.origin);
});

Deno.test("a PDF of a page of 3,000 page breaks holds its first MAX_PDF_PAGES pages", async () => {
  const breaks = '<div style="break-after:page">page</div>'.repeat(3000);
  await using site = serve({
    "/ok": () => html(OK_PAGE),
    "/breaks": () => html(`<!doctype html><body>${breaks}`),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const whole = await pool.visit(`${site.origin}/breaks`, { pdf: true, timeoutMs: 25_000 });
  assert.equal(await pdfPages(whole.pdf!.bytes), MAX_PDF_PAGES);
  // Any pages, no more of them than that: a range open at its end closes MAX_PDF_PAGES on.
  const later = await pool.visit(`${site.origin}/breaks`, {
    pdf: { pageRanges: "2900-" },
    timeoutMs: 25_000,
  });
  assert.equal(await pdfPages(later.pdf!.bytes), 101);
  await assert.rejects(
    pool.visit(`${site.origin}/breaks`, { pdf: { pageRanges: "1-3000" }, timeoutMs: 25_000 }),
    (error: ApiError) => error.code === "EINVALQUERY" && /3000 pages/.test(error.message),
  );
  await stillServes(pool, site.origin);
});

/** Pages of a PDF, as pdf.js reads them. */
async function pdfPages(bytes: Uint8Array): Promise<number> {
  const task = getDocument({ data: bytes.slice(), verbosity: 0 });
  try {
    return (await task.promise).numPages;
  } finally {
    await task.destroy();
  }
}
