import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { BrowserPool } from "../../lib/browser/mod.ts";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { poolFor } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

const OK_PAGE = "<!doctype html><title>ok</title><p>ok</p>";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const code = (expected: string) => (error: unknown) =>
  error instanceof ApiError && error.code === expected;

/** Processes whose parent is this test process and that are zombies (exited, not reaped). */
function zombieChildren(): number[] {
  const zombies: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" && Number(fields[1]) === Deno.pid) zombies.push(Number(entry.name));
    } catch {
      // the process ended while we looked
    }
  }
  return zombies;
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

Deno.test("visit() answers EBUSY beyond the queue and serves the queued visit", async () => {
  await using site = serve({
    "/slow": async () => {
      await sleep(1500);
      return html(OK_PAGE);
    },
    "/": () => html(OK_PAGE),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }), { maxPages: 1, maxQueue: 1 });
  assert.equal(await pool.ready(), true);
  const first = pool.visit(`${site.origin}/slow`, { html: true });
  await sleep(100);
  const second = pool.visit(`${site.origin}/`, { html: true });
  assert.deepEqual({ ...pool.stats(), pid: 0 }, {
    inUse: 1,
    queued: 1,
    maxPages: 1,
    maxQueue: 1,
    pid: 0,
    launches: 1,
    contexts: pool.stats().contexts,
    pages: pool.stats().pages,
  });
  await assert.rejects(pool.visit(`${site.origin}/`), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EBUSY");
    assert.equal(error.status, 503);
    assert.deepEqual(error.headers, { "retry-after": "2" });
    return true;
  });
  assert.equal((await first).statusCode, 200);
  assert.match((await second).html!, /<p>ok<\/p>/);
  await pool.settled();
  assert.deepEqual([pool.stats().inUse, pool.stats().queued, pool.stats().contexts], [0, 0, 0]);
});

Deno.test("BROWSER_PAGES and BROWSER_QUEUE size the pool (defaults 3 and 16)", async () => {
  assert.deepEqual(
    [testConfig().browserPages, testConfig().browserQueue],
    [3, 16],
  );
  assert.throws(
    () => testConfig({ env: { BROWSER_PAGES: "0" } }),
    /BROWSER_PAGES must be an integer >= 1/,
  );
  await using site = serve({
    "/slow": async () => {
      await sleep(1000);
      return html(OK_PAGE);
    },
    "/": () => html(OK_PAGE),
  });
  const config = testConfig({
    trustPorts: [site.port],
    env: { BROWSER_PAGES: "2", BROWSER_QUEUE: "1" },
  });
  await using pool = poolFor(config);
  assert.equal(await pool.ready(), true);
  // A slot is taken, or a place in the queue, as soon as visit() is called.
  const running = [pool.visit(`${site.origin}/slow`), pool.visit(`${site.origin}/slow`)];
  const queued = pool.visit(`${site.origin}/`, { html: true });
  const { inUse, queued: waiting, maxPages, maxQueue } = pool.stats();
  assert.deepEqual({ inUse, waiting, maxPages, maxQueue }, {
    inUse: 2,
    waiting: 1,
    maxPages: 2,
    maxQueue: 1,
  });
  await assert.rejects(pool.visit(`${site.origin}/`), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EBUSY");
    assert.match(error.message, /2 pages open, 1 waiting/);
    return true;
  });
  for (const visit of running) assert.equal((await visit).statusCode, 200);
  assert.match((await queued).html!, /<p>ok<\/p>/);
});

Deno.test("visit() fails only the hostile page's request and the pool keeps serving", async (t) => {
  await using site = serve({
    "/": () => html(OK_PAGE),
    "/spin": () => html("<p>x</p><script>while (true) {}</script>"),
    "/spin-later": () => html("<p>x</p><script>setTimeout(() => { while (true) {} }, 0)</script>"),
    "/alerts": () => html("<script>while (true) alert('hi');</script>"),
    "/popups": () =>
      html(`<p id="p">popups</p><script>
        for (let i = 0; i < 60; i++) window.open("/?popup=" + i);
      </script>`),
    "/bomb": () =>
      html(`<script>const keep = [];
        while (true) keep.push(new Array(4e6).fill(Math.random()));</script>`),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const normal = async () => {
    const result = await pool.visit(`${site.origin}/`, { screenshot: true });
    assert.equal(result.screenshot!.width, 2560);
    await pool.settled();
    assert.equal(pool.stats().contexts, 0, "no context left open");
  };

  for (const path of ["/spin", "/spin-later", "/alerts"]) {
    await t.step(`${path} ends in EBRWSRTIMEOUT at the deadline`, async () => {
      const started = Date.now();
      await assert.rejects(
        pool.visit(`${site.origin}${path}`, { screenshot: true, timeoutMs: 2500 }),
        code("EBRWSRTIMEOUT"),
      );
      const took = Date.now() - started;
      assert.ok(took >= 2400 && took < 9000, `took ${took} ms`);
      await normal();
      assert.equal(pool.stats().launches, 1, "the browser itself was not replaced");
    });
  }

  await t.step("window.open spam is closed and the capture succeeds", async () => {
    const result = await pool.visit(`${site.origin}/popups`, { screenshot: true, html: true });
    assert.match(result.html!, /<p id="p">popups<\/p>/);
    await pool.settled();
    await pool.settled();
    assert.equal(pool.stats().contexts, 0);
    await normal();
  });

  await t.step("a memory bomb crashes its own tab: EBROWSER for that request", async () => {
    await assert.rejects(
      pool.visit(`${site.origin}/bomb`, { screenshot: true, timeoutMs: 20_000 }),
      (error: unknown) =>
        error instanceof ApiError && error.code === "EBROWSER" && /crashed/.test(error.message),
    );
    await normal();
  });
});

Deno.test("visit() relaunches Chromium after it is killed, leaving no zombie", async () => {
  await using site = serve({ "/": () => html(OK_PAGE) });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  await pool.visit(`${site.origin}/`, { screenshot: true });
  const first = pool.stats().pid!;
  assert.ok(alive(first));
  Deno.kill(first, "SIGKILL");
  for (let i = 0; i < 50 && pool.stats().pid !== null; i++) await sleep(50);
  const result = await pool.visit(`${site.origin}/`, { screenshot: true });
  assert.equal(result.screenshot!.height, 1600);
  const stats = pool.stats();
  assert.equal(stats.launches, 2);
  assert.notEqual(stats.pid, first);
  assert.equal(alive(first), false);
  assert.deepEqual(zombieChildren(), []);
  await pool.close();
  assert.equal(alive(stats.pid!), false, "close() ends Chromium");
  assert.deepEqual(zombieChildren(), []);
});

Deno.test("visit() without a Chromium binary is EBROWSER at request time", async () => {
  const config = testConfig({ trustPorts: [], env: { CHROMIUM_PATH: "/nonexistent/chromium" } });
  // Creating the pool must not fail: only a request finds out.
  await using pool = new BrowserPool({ config, fetcher: new GuardedFetcher({ config }) });
  assert.equal(await pool.ready(), false);
  await assert.rejects(pool.visit("http://example.invalid/"), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EBROWSER");
    assert.equal(error.status, 503);
    assert.match(error.message, /\/nonexistent\/chromium/);
    return true;
  });
});

Deno.test("visit() rejects non-http(s) URLs and honours the caller's signal", async () => {
  await using site = serve({
    "/slow": async () => {
      await sleep(3000);
      return html(OK_PAGE);
    },
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  await assert.rejects(pool.visit("file:///etc/passwd"), code("EINVALURL"));
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 500);
  await assert.rejects(
    pool.visit(`${site.origin}/slow`, { signal: controller.signal }),
    code("EBRWSRTIMEOUT"),
  );
  await pool.settled();
  assert.equal(pool.stats().contexts, 0);
});
