import assert from "node:assert/strict";
import { PHASES } from "../../lib/util/server_timing.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

/** `name;dur=1.2, ...` as [name, ms] pairs, in order. */
function phasesOf(header: string | null): [string, number][] {
  assert.ok(header, "server-timing is present");
  return header.split(", ").map((part) => {
    const match = /^([a-z]+);dur=(\d+\.\d)$/.exec(part);
    assert.ok(match, `a phase with a duration: ${part}`);
    return [match[1]!, Number(match[2])];
  });
}

Deno.test("server-timing names every phase, then the total", async () => {
  await using site = serve({
    "/": () => html("<title>Timed</title><meta name=description content=phases>"),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const miss = await app.get(q(`${site.origin}/`, "&ping=false"));
  await miss.body?.cancel();
  assert.equal(miss.headers.get("x-cache-status"), "MISS");
  const phases = phasesOf(miss.headers.get("server-timing"));
  assert.deepEqual(phases.map(([name]) => name), [
    "fetch",
    "admit",
    "cache",
    "decode",
    "extract",
    "probe",
    "browser",
    "store",
    "respond",
    "total",
  ]);
  assert.deepEqual(phases.slice(0, -1).map(([name]) => name), [...PHASES]);
  const ms = Object.fromEntries(phases);
  // A miss fetched the page; no phase took longer than the whole request.
  assert.ok(ms.fetch! > 0, `fetch ${ms.fetch}`);
  assert.equal(ms.browser, 0);
  for (const [name, value] of phases) assert.ok(value <= ms.total!, `${name} <= total`);

  const hit = await app.get(q(`${site.origin}/`, "&ping=false"));
  await hit.body?.cancel();
  assert.equal(hit.headers.get("x-cache-status"), "HIT");
  const again = Object.fromEntries(phasesOf(hit.headers.get("server-timing")));
  // A hit fetched nothing and stored nothing; it still says how the payload was made.
  assert.equal(again.fetch, 0);
  assert.equal(again.store, 0);
  assert.equal(hit.headers.get("x-fetch-mode"), "fetch");
});
