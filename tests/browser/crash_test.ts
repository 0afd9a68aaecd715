/**
 * Chromium dying under a visit (its main process, or every renderer) is the browser's failure:
 * EBROWSER, never cached, never the target's EFETCH; and the next visit works.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { poolFor } from "./_helpers.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { descendants } from "../_processes.ts";

const OK_PAGE = "<!doctype html><title>ok</title><p>ok</p>";

async function renderers(browserPid: number): Promise<number[]> {
  return (await descendants(browserPid)).filter((pid) => {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`).includes("--type=renderer");
    } catch {
      return false;
    }
  });
}

/**
 * A target whose page is requested, then held until released: "mid-visit" made exact. Its
 * disposal releases the page first, so that a failing test still ends.
 */
function heldSite() {
  let requested!: () => void;
  const seen = new Promise<void>((resolve) => requested = resolve);
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const fixture = serve({
    "/held": async () => {
      requested();
      await released;
      return html(OK_PAGE);
    },
    "/": () => html(OK_PAGE),
  });
  const site = {
    port: fixture.port,
    origin: fixture.origin,
    async [Symbol.asyncDispose]() {
      release();
      await fixture[Symbol.asyncDispose]();
    },
  };
  return { site, seen, release };
}

const isBrowserError = (error: unknown) => {
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.code, "EBROWSER", error.message);
  assert.equal(error.status, 503);
  return true;
};

Deno.test("Chromium killed mid-screenshot is EBROWSER, and the next screenshot relaunches it", async () => {
  const { site, seen, release } = heldSite();
  await using _site = site;
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  assert.equal(await pool.ready(), true);
  const visit = pool.visit(`${site.origin}/held`, { screenshot: true, timeoutMs: 20_000 });
  await seen;
  Deno.kill(pool.stats().pid!, "SIGKILL");
  await assert.rejects(visit, isBrowserError);
  release();
  const result = await pool.visit(`${site.origin}/`, { screenshot: true });
  assert.equal(result.screenshot!.width, 2560);
  assert.equal(pool.stats().launches, 2);
});

Deno.test("every renderer killed mid-visit: EBROWSER for that visit, and the next one works", async (t) => {
  const { site, seen, release } = heldSite();
  await using _site = site;
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  // A first visit leaves a spare context (and its renderer) ready for the next one.
  await pool.visit(`${site.origin}/`, { screenshot: true });
  await pool.settled();
  const visit = pool.visit(`${site.origin}/held`, { screenshot: true, timeoutMs: 20_000 });
  await seen;
  const pid = pool.stats().pid!;
  const killed = await renderers(pid);
  assert.ok(killed.length >= 2, `renderers: ${killed.length} (the visit's and the spare's)`);
  for (const renderer of killed) Deno.kill(renderer, "SIGKILL");
  await t.step("the visit under way fails as the browser's", async () => {
    await assert.rejects(visit, isBrowserError);
  });
  release();
  await t.step("the next screenshots succeed on the same browser", async () => {
    for (let i = 0; i < 2; i++) {
      const result = await pool.visit(`${site.origin}/`, { screenshot: true, timeoutMs: 15_000 });
      assert.equal(result.screenshot!.height, 1600);
    }
    assert.equal(pool.stats().pid, pid, "the browser itself was not replaced");
    await pool.settled();
    assert.equal(pool.stats().contexts, 0, "the dead contexts were closed");
  });
});

Deno.test("a browser failure is answered EBROWSER and not cached: the next request succeeds", async () => {
  const { site, seen, release } = heldSite();
  await using _site = site;
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const query = q(`${site.origin}/held`, "&screenshot&meta=false");
  const first = app.json(query);
  await seen;
  Deno.kill(app.handler.services.browser.stats().pid!, "SIGKILL");
  const failed = await first;
  assert.equal(failed.status, 503);
  assert.equal(failed.body.code, "EBROWSER");
  assert.notEqual(failed.headers.get("x-cache-status"), "HIT");
  release();
  const again = await app.json(query);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.headers.get("x-cache-status"), "MISS");
  assert.equal(again.body.data.screenshot.width, 2560);
});
