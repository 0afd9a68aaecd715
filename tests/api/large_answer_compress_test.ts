/**
 * Compressing an answer does not hold the event loop for long: Brotli at quality 5 took about
 * 700 ms a MB on text of random letters (a page can put such text in any field, a `function`
 * value up to 1 MiB of it), against ~7 ms a MB at the quality 1 sent, for a body about as
 * small; and answers past COMPRESS_MAX_BYTES are not compressed at all (gzip -6 costs up to ~70
 * ms a MB).
 */
import assert from "node:assert/strict";
import { brotliDecompressSync } from "node:zlib";
import { jsonTextResponse } from "../../lib/api/respond.ts";
import { COMPRESS_MAX_BYTES } from "../../lib/util/compress.ts";

/** The longest gap between ticks of a 5 ms timer beyond its period while `work` runs. */
async function lagDuring(work: () => Promise<unknown>): Promise<number> {
  let lag = 0;
  let ticks = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 5);
    last = now;
    ticks++;
  }, 5);
  try {
    await work();
    // A stall at the end of the work shows only at the tick after it: wait for that tick.
    const seen = ticks;
    while (ticks === seen) await new Promise((resolve) => setTimeout(resolve, 1));
  } finally {
    clearInterval(timer);
  }
  return Math.round(lag);
}

/** `kb` KB of JSON: random letters, as page values can be (the worst text to compress). */
function randomLettersJson(kb: number): string {
  const letters = new Uint8Array(kb * 1024);
  for (let i = 0; i < letters.length; i += 65536) {
    crypto.getRandomValues(letters.subarray(i, i + 65536));
  }
  for (let i = 0; i < letters.length; i++) letters[i] = 97 + (letters[i]! % 26);
  return JSON.stringify({ data: { text: new TextDecoder().decode(letters) } });
}

/** How late a timer fires while `json` is answered as a client preferring Brotli gets it. */
async function answer(json: string) {
  let body = new Uint8Array();
  let encoding: string | null = null;
  const lag = await lagDuring(async () => {
    const response = jsonTextResponse(json, 200, {}, { encoding: "br" });
    encoding = response.headers.get("content-encoding");
    body = new Uint8Array(await response.arrayBuffer());
  });
  return { lag, body, encoding };
}

Deno.test("answers up to COMPRESS_MAX_BYTES are Brotli-compressed without a long stall", async () => {
  const json = randomLettersJson(500);
  assert.ok(json.length <= COMPRESS_MAX_BYTES);
  // The machine's own noise over a similar span (other suites share its cores).
  const noise = await lagDuring(() => new Promise((resolve) => setTimeout(resolve, 300)));
  const { lag, body, encoding } = await answer(json);
  assert.equal(encoding, "br");
  assert.equal(new TextDecoder().decode(brotliDecompressSync(body)), json);
  assert.ok(body.length < json.length * 0.7, `${body.length} bytes for ${json.length}`);
  // Quality 5 stalled ~350 ms on this much; quality 1 about 3 ms.
  assert.ok(lag < 100 + Math.min(2 * noise, 400), `a timer fired ${lag} ms late (noise ${noise})`);
});

Deno.test("a longer answer (1.4 MB, as page code may make) is sent as it is: no stall", async () => {
  const json = randomLettersJson(1400);
  const noise = await lagDuring(() => new Promise((resolve) => setTimeout(resolve, 300)));
  const { lag, body, encoding } = await answer(json);
  assert.equal(encoding, null);
  assert.equal(new TextDecoder().decode(body), json);
  // Compressing it took 100-950 ms of the event loop (quality 4 and 5).
  assert.ok(lag < 100 + Math.min(2 * noise, 400), `a timer fired ${lag} ms late (noise ${noise})`);
});
