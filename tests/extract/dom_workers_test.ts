/**
 * The page-work pool: bounded (EBUSY past its queue), each worker stops itself at its deadline
 * or when its caller gives up, and a worker's heap is capped without taking the process down.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { ALONE_LIMIT, DomWorkers } from "../../lib/extract/dom/workers.ts";
import { WORKER_THRESHOLD } from "../../lib/extract/dom/work.ts";
import { MAX_DOM_NODES, parseDocument } from "../../lib/extract/stream/html_parser.ts";

setQuiet(true);

const URL_ = "http://page.invalid/";
/**
 * A page and a rule whose work grows with the square of the page: the text of each of 20,000
 * nested elements is read from its whole subtree. It runs for minutes unless stopped.
 */
const ENDLESS = {
  html: "<b>".repeat(20_000) + "x",
  url: URL_,
  rules: { t: [{ selectorAll: ["b"], attr: ["text"] }] },
  markdown: false,
};

/** CPU seconds this process used (user + system), from /proc. */
function cpuSeconds(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const rejectsWith = (code: string) => (error: unknown) =>
  error instanceof ApiError && error.code === code;

Deno.test("DomWorkers answers EBUSY past its queue and frees slots of cancelled jobs", async () => {
  await using pool = new DomWorkers({ maxWorkers: 1, maxQueue: 1, jobTimeoutMs: 120_000 });
  const first = new AbortController();
  const second = new AbortController();
  const running = pool.run(ENDLESS, { signal: first.signal });
  const waiting = pool.run(ENDLESS, { signal: second.signal });
  running.catch(() => {});
  waiting.catch(() => {});
  assert.deepEqual({ ...pool.stats(), workers: 1 }, {
    busy: 1,
    queued: 1,
    workers: 1,
    replaced: 0,
    aloneRuns: 0,
    aloneMoved: 0,
  });
  await assert.rejects(pool.run(ENDLESS), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EBUSY");
    assert.equal(error.status, 503);
    assert.deepEqual(error.headers, { "retry-after": "2" });
    assert.match(error.message, /page-processing workers are saturated/);
    return true;
  });
  second.abort(new ApiError("ETIMEOUT", "second gave up"));
  await assert.rejects(waiting, rejectsWith("ETIMEOUT"));
  assert.equal(pool.stats().queued, 0, "a caller that gives up leaves the queue");
  first.abort(new ApiError("ETIMEOUT", "first gave up"));
  await assert.rejects(running, rejectsWith("ETIMEOUT"));
  // The worker reads the cancel flag inside its loops: it stops by itself, is not replaced.
  await pool.settled();
  assert.deepEqual(pool.stats(), {
    busy: 0,
    queued: 0,
    workers: 1,
    replaced: 0,
    aloneRuns: 0,
    aloneMoved: 0,
  });
  const small = await pool.run({ ...ENDLESS, html: "<b>ok</b>".repeat(WORKER_THRESHOLD / 4) });
  assert.equal((small.custom.t as string[]).length, WORKER_THRESHOLD / 4);
});

Deno.test("a DOM worker stops itself at its deadline and burns no CPU after it", async () => {
  await using pool = new DomWorkers({ maxWorkers: 1, jobTimeoutMs: 1000 });
  await assert.rejects(pool.run(ENDLESS), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "ETIMEOUT");
    assert.match(error.message, /DOM took longer than 1000 ms/);
    return true;
  });
  await pool.settled();
  assert.equal(pool.stats().replaced, 0, "it stopped by itself, before the watchdog");
  // A worker still spinning would use about a CPU second per second here.
  const before = cpuSeconds();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const used = cpuSeconds() - before;
  assert.ok(used < 0.5, `${used} CPU seconds in one idle second`);
});

/**
 * A small page (2 KB, 200 nested divs) and a caller's selector whose one match is quartic in the
 * page's depth: minutes inside css-select, where no loop of ours runs.
 */
const HOSTILE_SELECTOR = {
  html: "<div>".repeat(200) + "x",
  url: URL_,
  rules: { t: [{ selector: [":has(~ *, :has(~ *, :has(~ span)))"] }] },
  markdown: false,
};

Deno.test("a caller's selector far from linear moves a small page to a worker, which stops it", async () => {
  assert.ok(HOSTILE_SELECTOR.html.length < WORKER_THRESHOLD);
  await using pool = new DomWorkers({ maxWorkers: 1, jobTimeoutMs: 1000 });
  await assert.rejects(pool.run(HOSTILE_SELECTOR), rejectsWith("ETIMEOUT"));
  // Not on this thread past its slice: the page went to a worker (the main thread stays free).
  assert.equal(pool.stats().workers, 1);
  // The match spends the job's budget as it looks at nodes: the worker ended it by itself.
  await pool.settled();
  assert.equal(pool.stats().replaced, 0, "it stopped by itself, before the watchdog");
  // The pool still works.
  const ok = await pool.run({
    ...HOSTILE_SELECTOR,
    rules: { t: [{ selector: ["div"], attr: ["text"] }] },
  });
  assert.equal(ok.custom.t, "x");
});

Deno.test("a worker's heap is capped: a page too big for it fails alone, the next job runs", async () => {
  await using pool = new DomWorkers({ maxWorkers: 1, heapMb: 16, jobTimeoutMs: 3000 });
  const huge = {
    html: '<p class="c">text</p>'.repeat(250_000),
    url: URL_,
    rules: null,
    markdown: true,
  };
  const failed = await pool.run(huge).then(() => null, (error: unknown) => error);
  assert.ok(failed instanceof ApiError, String(failed));
  assert.ok(["ETIMEOUT", "EFATAL"].includes(failed.code), failed.code);
  await pool.settled();
  const fine = await pool.run({
    html: "<h1>Fine</h1>" + "<p>ok</p>".repeat(5000),
    url: URL_,
    rules: null,
    markdown: true,
  });
  assert.match(fine.markdown!, /^# Fine/);
});

Deno.test("parseDocument() keeps at most MAX_DOM_NODES nodes of a page", () => {
  const doc = parseDocument("<i>a</i>".repeat(MAX_DOM_NODES), {});
  let nodes = 0;
  const stack = [...doc.children];
  while (stack.length) {
    const node = stack.pop()!;
    nodes++;
    if ("children" in node) stack.push(...node.children);
  }
  assert.ok(nodes <= MAX_DOM_NODES && nodes >= MAX_DOM_NODES - 1, String(nodes));
});

Deno.test("a custom media value and its later fallbacks keep their references through a worker", async () => {
  await using pool = new DomWorkers({ maxWorkers: 1, jobTimeoutMs: 60_000 });
  const result = await pool.run({
    html: `<img id="a" src="/a.png"><img id="b" src="/b.png">`,
    url: URL_,
    rules: { pic: [{ selector: ["#a", "#b"], attr: ["src"], type: ["image"] }] },
    markdown: false,
  });
  assert.equal(result.customMedia.length, 1, "the later value is probed only in its turn");
  const [media] = result.customMedia;
  assert.equal(media!.value, result.custom.pic, "the value the probes complete is the answer's");
  const fallback = media!.fallback!;
  assert.equal(fallback.holder, result.custom, "where a later value would take its place");
  assert.equal(fallback.key, "pic");
  const [next] = fallback.next;
  assert.equal((next!.value as { url: string }).url, "http://page.invalid/b.png");
  assert.equal(next!.media[0]!.value, next!.value);
});

/** An article of about `kb` KB: well over WORKER_THRESHOLD, under ALONE_LIMIT. */
function article(kb: number): string {
  const paragraph = "<p>A sentence of the article, with a few words, and another one here.</p>";
  const count = Math.ceil((kb * 1024) / paragraph.length);
  return `<html><head><title>Alone</title></head><body><article><h1>Alone</h1>${
    paragraph.repeat(count)
  }</article></body></html>`;
}

const workerFree = (stats: { workers: number; aloneRuns: number; aloneMoved: number }) => ({
  workers: stats.workers,
  aloneRuns: stats.aloneRuns,
  aloneMoved: stats.aloneMoved,
});

/**
 * A pool of one worker whose requests are all alone, or never (`alone`); a lone run works here
 * for at most `sliceMs` (by default a slice no run here outlasts: where work runs, not how fast).
 */
function onePool(alone: boolean, sliceMs = 60_000): DomWorkers {
  return new DomWorkers({
    maxWorkers: 1,
    alone: { when: () => alone, sliceMs },
    jobTimeoutMs: 60_000,
  });
}

Deno.test("a lone request's page work runs on this thread, as it would on a worker", async () => {
  await using alone = onePool(true);
  await using shared = onePool(false);
  const work = { html: article(100), url: URL_, rules: null, markdown: true, text: true };
  assert.ok(work.html.length > WORKER_THRESHOLD && work.html.length < ALONE_LIMIT);
  const here = await alone.run(work);
  const there = await shared.run(work);
  assert.match(here.markdown!, /^# Alone/);
  assert.deepEqual(here, there);
  assert.deepEqual(workerFree(alone.stats()), { workers: 0, aloneRuns: 1, aloneMoved: 0 });
  assert.equal(shared.stats().workers, 1, "not alone: a worker, as before");
  // The default fields of a page over EXTRACT_THRESHOLD, too.
  const fields = await alone.extract(work.html, URL_);
  assert.deepEqual(fields, await shared.extract(work.html, URL_));
  assert.equal(fields.title, "Alone");
  assert.deepEqual(workerFree(alone.stats()), { workers: 0, aloneRuns: 2, aloneMoved: 0 });
  // A page over ALONE_LIMIT goes to a worker even alone.
  const big = { ...work, html: article(ALONE_LIMIT / 1024 + 16) };
  assert.match((await alone.run(big)).markdown!, /^# Alone/);
  assert.deepEqual(workerFree(alone.stats()), { workers: 1, aloneRuns: 2, aloneMoved: 0 });
});

Deno.test("lone page work that outlasts its slice moves to a worker and completes there", async () => {
  await using pool = onePool(true, 1);
  // Quadratic in its 6,000 nested elements (18 million node visits): far past a 1 ms slice.
  const slow = { ...ENDLESS, html: "<b>".repeat(6000) + "x" };
  assert.ok(slow.html.length > WORKER_THRESHOLD);
  const result = await pool.run(slow);
  assert.equal((result.custom.t as string[]).length, 6000);
  assert.deepEqual(workerFree(pool.stats()), { workers: 1, aloneRuns: 1, aloneMoved: 1 });
});

Deno.test("a lone request's fields are read on an idle worker while its DOM work runs here", async () => {
  await using alone = onePool(true);
  // Not alone: the DOM work and the fields from one parse, on a worker.
  await using shared = onePool(false);
  const html = article(100).replace(
    "<title>",
    '<meta name="description" content="Read twice, alike."><meta name="author" content="A. Writer">' +
      "<title>",
  );
  const work = { html, url: URL_, rules: null, markdown: true, fields: { fetched: null } };
  const here = await alone.run(work);
  assert.deepEqual(here, await shared.run(work), "the same answer as from one parse");
  assert.match(here.markdown!, /^# Alone/);
  assert.deepEqual(
    [here.extracted!.title, here.extracted!.description, here.extracted!.author],
    ["Alone", "Read twice, alike.", "A. Writer"],
  );
  // The DOM work here (a lone run), the fields on the pool's worker.
  assert.deepEqual(workerFree(alone.stats()), { workers: 1, aloneRuns: 1, aloneMoved: 0 });
  // A small page too.
  const small = { ...work, html: article(4) };
  assert.ok(small.html.length < WORKER_THRESHOLD);
  assert.equal((await alone.run(small)).extracted!.title, "Alone");
  assert.deepEqual(workerFree(alone.stats()), { workers: 1, aloneRuns: 2, aloneMoved: 0 });
});

Deno.test("lone DOM work past its slice moves to a worker and still gets its fields", async () => {
  await using pool = onePool(true, 1);
  // Quadratic in its 6,000 nested elements: far past a 1 ms slice. With one worker, the DOM
  // work waits for the fields' job to end.
  const slow = {
    ...ENDLESS,
    html: "<title>Slow</title>" + "<b>".repeat(6000) + "x",
    fields: { fetched: null },
  };
  const result = await pool.run(slow);
  assert.equal((result.custom.t as string[]).length, 6000);
  assert.equal(result.extracted!.title, "Slow");
  assert.deepEqual(workerFree(pool.stats()), { workers: 1, aloneRuns: 1, aloneMoved: 1 });
});
