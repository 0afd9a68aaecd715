/**
 * Bounds on what caller code run in the page (`evaluate` rules, `function`) sends back, in real
 * Chromium: at most 2 MiB of JSON per request in total (50 rules and a function at the 1 MiB
 * per-value cap made a 50 MB answer before), and no value nested deeper than 64 levels, even
 * when the page's own scripts replace `JSON.stringify` to hand back a 400,000-deep text.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { CHROMIUM, requireChromium } from "./_helpers.ts";
import { eventLoopDelay } from "../../lib/metrics/event_loop.ts";
import { jsonDepth } from "../../lib/util/json_depth.ts";

const TOTAL_CHARS = 2 * 1024 * 1024;
const DEPTH = 64;

/** Each bucket's cumulative count of the event-loop delay histogram (the /metrics series). */
function delayBuckets(): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of eventLoopDelay().samples("d")) {
    const match = /^d_bucket\{le="([^"]+)"\} (\d+)$/.exec(line);
    if (match) out.set(match[1]!, Number(match[2]));
  }
  return out;
}

/** The smallest bucket bound holding every delay sampled between two readings, in seconds. */
function worstDelay(before: Map<string, number>, after: Map<string, number>): number {
  const total = after.get("+Inf")! - before.get("+Inf")!;
  for (const [le, count] of after) {
    if (count - before.get(le)! === total) return Number(le);
  }
  return Infinity;
}

/** Waits until the sampler (every 100 ms) has taken `n` more samples: the loop was watched. */
async function samplesTaken(from: Map<string, number>, n: number): Promise<void> {
  while (delayBuckets().get("+Inf")! < from.get("+Inf")! + n) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const rules = (count: number, source: string) =>
  Array.from({ length: count }, (_, i) => `&data.r${i}.evaluate=${encodeURIComponent(source)}`)
    .join("");

Deno.test("page code: 2 MiB of JSON per request in total, without stalling the event loop", async (t) => {
  requireChromium();
  await using site = serve({ "/": () => html("<title>t</title><p>page</p>") });
  await using app = await testApp(
    testConfig({ trustPorts: [site.port], env: { CHROMIUM_PATH: CHROMIUM } }),
  );
  const ask = (extra: string) => app.get(q(`${site.origin}/`, `&meta=false&timeout=25s${extra}`));

  // The machine's own noise (other suites share its cores): the same 51 runs, tiny values.
  const quiet = delayBuckets();
  const small = await ask(rules(50, '"x"') + `&function=${encodeURIComponent('() => "y"')}`);
  assert.equal(small.status, 200);
  await small.body?.cancel();
  await samplesTaken(quiet, 2);
  const noise = worstDelay(quiet, delayBuckets());

  await t.step("50 rules and a function at the per-value cap", async () => {
    const before = delayBuckets();
    const response = await ask(
      rules(50, '"x".repeat(700000)') +
        `&function=${encodeURIComponent('() => "y".repeat(700000)')}`,
    );
    const text = await response.text();
    await samplesTaken(before, 2);
    const worst = worstDelay(before, delayBuckets());
    assert.equal(response.status, 200, text.slice(0, 300));
    assert.ok(text.length < TOTAL_CHARS + 100_000, `a ${text.length}-character answer`);
    const { data } = JSON.parse(text);
    // Two values fit in 2 MiB; every later one is rejected (a rule then reads null).
    assert.equal(data.r0.length, 700_000);
    assert.equal(data.r1.length, 700_000);
    for (let i = 2; i < 50; i++) assert.equal(data[`r${i}`], null, `r${i}`);
    assert.equal(data.function.isRejected, true);
    assert.equal(data.function.value.name, "RangeError");
    assert.match(data.function.value.message, /larger than 2097152 characters of JSON together/);
    // Serializing a 50 MB answer held the loop for about half a second.
    assert.ok(worst <= Math.max(0.5, noise), `a ${worst} s stall (noise ${noise} s)`);
  });

  await t.step("the function alone still gets its full 1 MiB", async () => {
    const response = await ask(`&function=${encodeURIComponent('() => "y".repeat(1048000)')}`);
    const { data } = await response.json();
    assert.equal(data.function.isFulfilled, true);
    assert.equal(data.function.value.length, 1_048_000);
  });
});

Deno.test("page code: values nest at most 64 levels, whatever the page does", async (t) => {
  requireChromium();
  await using site = serve({ "/": () => html("<title>t</title>") });
  await using app = await testApp(
    testConfig({ trustPorts: [site.port], env: { CHROMIUM_PATH: CHROMIUM } }),
  );
  const ask = async (extra: string) => {
    const response = await app.get(q(`${site.origin}/`, `&meta=false${extra}`));
    const text = await response.text();
    assert.equal(response.status, 200, text.slice(0, 300));
    assert.ok(text.length < 10_000, `a ${text.length}-character answer`);
    return JSON.parse(text).data;
  };
  const nested = (levels: number) =>
    `() => { let v = []; for (let i = 1; i < ${levels}; i++) v = [v]; return v; }`;
  // The page's own scripts share the code's world: this one makes JSON.stringify lie.
  const lying = `() => { const deep = "[".repeat(400000) + "]".repeat(400000);
    JSON.stringify = () => deep; return 1; }`;
  const rejectedTooDeep = (result: { isRejected: boolean; value: { name: string } }) => {
    assert.equal(result.isRejected, true, JSON.stringify(result).slice(0, 200));
    assert.equal(result.value.name, "RangeError");
    assert.match(JSON.stringify(result.value), /deeper than 64 levels/);
  };

  await t.step("64 levels pass", async () => {
    const data = await ask(`&function=${encodeURIComponent(nested(DEPTH))}`);
    assert.equal(data.function.isFulfilled, true);
    assert.equal(jsonDepth(JSON.stringify(data.function.value), 1000), DEPTH);
  });
  await t.step("65 and 400,000 levels are rejected in the page", async () => {
    rejectedTooDeep((await ask(`&function=${encodeURIComponent(nested(DEPTH + 1))}`)).function);
    rejectedTooDeep((await ask(`&function=${encodeURIComponent(nested(400_000))}`)).function);
  });
  await t.step("a 400,000-deep text from a lying JSON.stringify is rejected here", async () => {
    rejectedTooDeep((await ask(`&function=${encodeURIComponent(lying)}`)).function);
    const data = await ask(`&data.x.evaluate=${encodeURIComponent(`(${lying})()`)}`);
    assert.equal(data.x, null);
  });
});

Deno.test("jsonDepth() counts brackets outside strings only", () => {
  assert.equal(jsonDepth("1", 10), 0);
  assert.equal(jsonDepth('{"a":[1,{"b":[]}]}', 10), 4);
  assert.equal(jsonDepth('["[[[", "\\"[[", "\\\\", [[]]]', 10), 3);
  // It stops once past the bound: linear in the text, never more.
  assert.equal(jsonDepth("[".repeat(1_000_000), 64), 65);
});
