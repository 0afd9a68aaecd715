/**
 * Compressing a large answer does not hold the event loop for long: Brotli at quality 5 took
 * about 700 ms a MB on text of random letters (a page can put such text in any field, a
 * `function` value up to 1 MiB of it), ten times quality 4 for a body about as small.
 */
import assert from "node:assert/strict";
import { brotliDecompressSync } from "node:zlib";
import { jsonTextResponse } from "../../lib/api/respond.ts";

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

/** About 1.4 MB of JSON: random letters, as two `function`-sized page values can be. */
function randomLettersJson(): string {
  const letters = new Uint8Array(1400 * 1024);
  for (let i = 0; i < letters.length; i += 65536) {
    crypto.getRandomValues(letters.subarray(i, i + 65536));
  }
  for (let i = 0; i < letters.length; i++) letters[i] = 97 + (letters[i]! % 26);
  return JSON.stringify({ data: { text: new TextDecoder().decode(letters) } });
}

Deno.test("a 1.4 MB answer of random letters is Brotli-compressed without a long stall", async () => {
  const json = randomLettersJson();
  // The machine's own noise over a similar span (other suites share its cores).
  const noise = await lagDuring(() => new Promise((resolve) => setTimeout(resolve, 300)));
  let body = new Uint8Array();
  const lag = await lagDuring(async () => {
    const response = jsonTextResponse(json, 200, {}, { encoding: "br" });
    assert.equal(response.headers.get("content-encoding"), "br");
    body = new Uint8Array(await response.arrayBuffer());
  });
  assert.equal(new TextDecoder().decode(brotliDecompressSync(body)), json);
  assert.ok(body.length < json.length * 0.7, `${body.length} bytes for ${json.length}`);
  // Quality 5 stalled ~950 ms here; quality 4 takes about a tenth of that.
  assert.ok(lag < 250 + Math.min(2 * noise, 400), `a timer fired ${lag} ms late (noise ${noise})`);
});
