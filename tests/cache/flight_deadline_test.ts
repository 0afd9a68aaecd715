/**
 * A request that joins an identical computation already under way (single-flight) still ends
 * at its own deadline: it must not wait for a computation started by a request with a longer
 * one, nor for a STALE refresh that outlives the request that started it.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig, waitFor } from "../_fixtures.ts";

/** A page that answers at once until `drip()`; then it sends its body a comment at a time. */
function drippingSite() {
  let dripping = false;
  let open = 0;
  const release = Promise.withResolvers<void>();
  const encoder = new TextEncoder();
  const fixture = serve({
    "/": () => {
      if (!dripping) return html(`<title>made ${Date.now()}</title>`);
      open++;
      let timer: ReturnType<typeof setInterval> | undefined;
      let done = false;
      /** Whether the answer was still being sent (not cancelled by its reader). */
      const stop = () => {
        if (done) return false;
        done = true;
        clearInterval(timer);
        open--;
        return true;
      };
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode("<html><head><title>slow</title>"));
          timer = setInterval(() => controller.enqueue(encoder.encode("<!-- more -->")), 200);
          release.promise.then(() => {
            if (stop()) controller.close();
          });
        },
        cancel: () => void stop(),
      });
      return new Response(body, { headers: { "content-type": "text/html" } });
    },
  });
  return Object.assign(fixture, {
    drip: () => dripping = true,
    /** Answers still being sent (the computation reading them has not given up). */
    open: () => open,
    release: () => release.resolve(),
  });
}

/** Deadlines far beyond the 1 s the joining request asks for. */
const SLOW_LIMITS = { REQUEST_TIMEOUT_MS: "60000", FETCH_TIMEOUT_MS: "60000" };

/** The answer, or null when `ms` pass first (a generous bound: the deadline asked is 1 s). */
async function within(ms: number, answer: Promise<Response>): Promise<Response | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => timer = setTimeout(resolve, ms, null));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a request joining a longer computation answers ETIMEOUT at its own deadline", async () => {
  await using site = drippingSite();
  await using app = await testApp(
    testConfig({ trustPorts: [site.port], env: SLOW_LIMITS }),
  );
  site.drip();
  const url = q(`${site.origin}/`, "&ping=false");
  const long = app.get(url);
  while (site.open() === 0) await new Promise((r) => setTimeout(r, 20));
  const joined = await within(15_000, app.get(`${url}&timeout=1s`));
  const stillComputing = site.open() === 1;
  site.release();
  await joined?.body?.cancel();
  await (await long).body?.cancel();
  assert.ok(joined, "no answer within 15 s for a request with timeout=1s");
  assert.equal(joined.status, 504);
  assert.ok(stillComputing, "answered only once the long computation was over");
});

Deno.test("a request joining a STALE refresh answers ETIMEOUT at its own deadline", async () => {
  await using site = drippingSite();
  await using app = await testApp(
    testConfig({ trustPorts: [site.port], env: SLOW_LIMITS }),
  );
  const url = q(`${site.origin}/`, "&ping=false&staleTtl=0");
  const first = await app.get(url);
  assert.equal(first.headers.get("x-cache-status"), "MISS");
  await first.body?.cancel();
  site.drip();
  // Answered from the copy at once; its refresh goes on without the request that started it.
  const stale = await app.get(url);
  assert.equal(stale.headers.get("x-cache-status"), "STALE");
  await stale.body?.cancel();
  while (site.open() === 0) await new Promise((r) => setTimeout(r, 20));
  const forced = await within(15_000, app.get(`${url}&force=true&timeout=1s`));
  const stillRefreshing = site.open() === 1;
  site.release();
  await forced?.body?.cancel();
  assert.ok(forced, "no answer within 15 s for a request with timeout=1s");
  assert.equal(forced.status, 504);
  assert.ok(stillRefreshing, "answered only once the refresh was over");
});

Deno.test("a STALE refresh ends at the deadline of the request that started it", async () => {
  await using site = drippingSite();
  await using app = await testApp(
    testConfig({
      trustPorts: [site.port],
      env: { REQUEST_TIMEOUT_MS: "1000", FETCH_TIMEOUT_MS: "60000" },
    }),
  );
  const url = q(`${site.origin}/`, "&ping=false&staleTtl=0");
  await (await app.get(url)).body?.cancel();
  site.drip();
  const stale = await app.get(url);
  assert.equal(stale.headers.get("x-cache-status"), "STALE");
  await stale.body?.cancel();
  while (site.open() === 0) await new Promise((r) => setTimeout(r, 20));
  // The request answered at once; its refresh must still give up at REQUEST_TIMEOUT_MS.
  const ended = await waitFor(() => site.open() === 0, 15_000);
  site.release();
  assert.ok(ended, "the refresh was still reading the page 15 s later");
});
