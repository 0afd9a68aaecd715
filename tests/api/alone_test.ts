/**
 * A request alone in the service does its page work on the main thread (no worker hop), while
 * an idle worker reads its default fields; with another request in flight, page work goes to
 * the worker pool, so requests run side by side.
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
    [1, 0, 1],
    "the lone request's DOM work was done here, its fields on a worker meanwhile",
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

// A 2x1 PNG: the media probe reads its size.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwSZGBgYAEPfBf9bxTkLAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

Deno.test("a lone request whose media are probed reads its fields beside its DOM work", async () => {
  await using site = serve({
    "/lone": () =>
      html(ARTICLE.replace("<title>", `<meta property="og:image" content="/cover.png"><title>`)),
    "/cover.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port], domAloneSliceMs: 60_000 }));
  // ping on (the default): the image is probed from the fields.
  const { body } = await app.json(q(`${site.origin}/lone`, "&markdown=true"));
  assert.match(body.data.markdown, /^# Alone/);
  assert.deepEqual(
    [body.data.image.url, body.data.image.type, body.data.image.width],
    [`${site.origin}/cover.png`, "png", 2],
  );
  // The probes could not have run while the DOM work held this thread: the fields were read on
  // a worker meanwhile, not here before it.
  const { aloneRuns, aloneMoved, workers } = app.handler.services.dom.stats();
  assert.deepEqual({ aloneRuns, aloneMoved, workers }, { aloneRuns: 1, aloneMoved: 0, workers: 1 });
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
