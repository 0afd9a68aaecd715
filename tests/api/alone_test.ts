/**
 * A request alone in the service does its page work on the main thread (no worker hop); with
 * another request in flight, page work goes to the worker pool, so requests run side by side.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { ALONE_LIMIT } from "../../lib/extract/dom/workers.ts";
import { WORKER_THRESHOLD } from "../../lib/extract/dom/work.ts";

const PARAGRAPH = "<p>A sentence of the article, with a few words, and another one here.</p>";
const ARTICLE = `<html><head><title>Alone</title></head><body><article><h1>Alone</h1>${
  PARAGRAPH.repeat(Math.ceil(60_000 / PARAGRAPH.length))
}</article></body></html>`;

Deno.test("page work: on the main thread when its request is alone, else on a worker", async () => {
  assert.ok(ARTICLE.length > WORKER_THRESHOLD && ARTICLE.length < ALONE_LIMIT);
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await using site = serve({
    "/lone": () => html(ARTICLE),
    // The first of a pair waits at the target until the second reached it: both in flight.
    "/first": async () => {
      await held;
      return html(ARTICLE);
    },
    "/second": () => {
      release();
      return html(ARTICLE);
    },
  });
  // A slice no run here outlasts: the test is about where the work runs, not how fast it is.
  await using app = await testApp(testConfig({ trustPorts: [site.port], domAloneSliceMs: 60_000 }));
  const dom = app.handler.services.dom;
  const markdown = (path: string) =>
    app.json(q(`${site.origin}${path}`, "&markdown=true&ping=false"));

  const lone = await markdown("/lone");
  assert.match(lone.body.data.markdown, /^# Alone/);
  assert.deepEqual(
    [dom.stats().aloneRuns, dom.stats().aloneMoved, dom.stats().workers],
    [1, 0, 0],
    "the lone request's work was done here",
  );
  assert.equal(app.handler.services.inFlight.count, 0);

  const before = dom.stats().aloneRuns;
  const pair = await Promise.all([markdown("/first"), markdown("/second")]);
  for (const answer of pair) assert.match(answer.body.data.markdown, /^# Alone/);
  // Whichever job ran first ran with both requests in flight: on a worker. The other may have
  // found its partner finished.
  assert.ok(dom.stats().aloneRuns - before <= 1, JSON.stringify(dom.stats()));
  assert.ok(dom.stats().workers >= 1, JSON.stringify(dom.stats()));
  assert.equal(app.handler.services.inFlight.count, 0, "every request left the count");
});

Deno.test("DOM_ALONE_SLICE_MS=0: page work over WORKER_THRESHOLD always runs on a worker", async () => {
  await using site = serve({ "/lone": () => html(ARTICLE) });
  await using app = await testApp(
    testConfig({ trustPorts: [site.port], env: { DOM_ALONE_SLICE_MS: "0" } }),
  );
  const lone = await app.json(q(`${site.origin}/lone`, "&markdown=true&ping=false"));
  assert.match(lone.body.data.markdown, /^# Alone/);
  const { aloneRuns, workers } = app.handler.services.dom.stats();
  assert.deepEqual({ aloneRuns, workers }, { aloneRuns: 0, workers: 1 });
});
