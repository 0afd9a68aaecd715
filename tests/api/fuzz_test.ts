import assert from "node:assert/strict";
import { PARAMS } from "../../lib/params/schema.ts";
import { html, serve, testApp, testConfig } from "../_fixtures.ts";

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return {
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

const VALUES = [
  "",
  "true",
  "false",
  "0",
  "-1",
  "1e309",
  "NaN",
  "99999999999999999999",
  "1d",
  "10s",
  "abc",
  "%",
  "\u0000",
  "\ud800",
  "é",
  "<script>",
  "../../etc/passwd",
  "a".repeat(5000),
  "#main",
  "div > p",
  "[[[",
  "javascript:alert(1)",
  "http://127.0.0.1:1/",
  "data:text/html,x",
  "png",
  "jpeg",
  "A4",
  "dark",
  "load",
  "iPhone 15",
];
/** `embed`'s own example (screenshot.url) turns the screenshot on: one that does not. */
const BROWSERLESS_EXAMPLES: Record<string, string> = { embed: "title" };
const KEYS = ["0", "1", "x", "__proto__", "constructor", "selector", "type", "width", "top"];

Deno.test("random queries never crash the service: every answer is a success or a 4xx/5xx envelope, never EFATAL", async () => {
  await using target = serve({
    "/": () =>
      html(`<title>fuzz</title><p class="price">12</p><a href="/x">x</a>
<meta property="og:image" content="/missing.png">`),
  });
  await using app = await testApp(
    testConfig({ trustPorts: [target.port], env: { FREE_DAILY_LIMIT: "100000" } }),
  );
  const names = Object.keys(PARAMS).filter((name) =>
    // Browser work (captures and what turns one on, `function`'s visit, `insights`' Lighthouse
    // run) is slow and has its own tests; the fuzz aims at parsing and extraction.
    ![
      "screenshot",
      "pdf",
      "element",
      "overlay",
      "codeScheme",
      "fullPage",
      "prerender",
      "function",
      "insights",
    ].includes(name)
  );
  const statuses: number[] = [];
  for (let seed = 1; seed <= 400; seed++) {
    const r = random(seed);
    const query = new URLSearchParams();
    query.set("url", r.chance(0.85) ? `${target.origin}/` : r.pick(VALUES));
    query.set("prerender", "false");
    for (let i = 0; i < 1 + Math.floor(seed % 5); i++) {
      let name = r.pick(names);
      // Mostly sensible values (the parameter's own example), sometimes anything at all.
      const example = BROWSERLESS_EXAMPLES[name] ?? PARAMS[name]!.example;
      let value = example !== undefined && !example.includes("=") && r.chance(0.75)
        ? example
        : r.pick(VALUES);
      while (r.chance(0.25)) {
        name += `.${r.pick(KEYS)}`;
        value = r.pick(VALUES);
      }
      if (r.chance(0.3)) name = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      query.append(name, value);
    }
    const response = await app.get(`?${query}`);
    statuses.push(response.status);
    const text = await response.text();
    const where = `seed ${seed}: ?${query.toString().slice(0, 300)}`;
    assert.notEqual(response.status, 500, `${where}\n${text.slice(0, 300)}`);
    if (response.headers.get("content-type")?.startsWith("application/json")) {
      const body = JSON.parse(text);
      assert.ok(["success", "fail", "error"].includes(body.status), where);
      assert.ok(!text.includes("    at "), `stack trace leaked: ${where}`);
    }
  }
  // The generator must reach the extraction path often, not only the parameter checks.
  const successes = statuses.filter((s) => s === 200).length;
  assert.ok(successes >= 80, `only ${successes} of 400 random queries succeeded`);
});
