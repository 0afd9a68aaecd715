/**
 * A client that disconnects abandons its request's work (the target's connection closes at
 * once, not at the deadline), unless another request joined the same computation: that one
 * still gets its answer. Real servers on loopback: the target, and linkpeek under Deno.serve.
 */
import assert from "node:assert/strict";
import { waiting } from "../../lib/cache/mod.ts";
import { html, q, testApp, testConfig, waitFor } from "../_fixtures.ts";

/** Deadlines far beyond the test's bounds: only a disconnect can end the work in time. */
const SLOW_LIMITS = { REQUEST_TIMEOUT_MS: "60000", FETCH_TIMEOUT_MS: "60000" };
/** Generous bound on what should happen at once. */
const PROMPTLY_MS = 15_000;

/**
 * A target that holds every answer (while `holding`) until release(), and says when linkpeek
 * hung up; its title counts the requests it saw.
 */
function stallingTarget() {
  let holding = true;
  let arrived = Promise.withResolvers<void>();
  let closed = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  let hits = 0;
  let closedEarly = 0;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const title = `made ${++hits}`;
      arrived.resolve();
      if (!holding) return html(`<title>${title}</title>`);
      const hungUp = new Promise<"hung up">((resolve) =>
        request.signal.addEventListener("abort", () => resolve("hung up"), { once: true })
      );
      if (await Promise.race([hungUp, release.promise]) === "hung up") {
        closedEarly++;
        closed.resolve();
      }
      return html(`<title>${title}</title>`);
    },
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    get hits() {
      return hits;
    },
    get closedEarly() {
      return closedEarly;
    },
    set holding(value: boolean) {
      holding = value;
    },
    arrived: () => arrived.promise,
    closed: () => closed.promise,
    /** Waits for the next request. */
    reset() {
      arrived = Promise.withResolvers();
      closed = Promise.withResolvers();
    },
    release: () => release.resolve(),
    [Symbol.asyncDispose]: () => {
      release.resolve();
      return server.shutdown();
    },
  };
}

/** Resolves true when `event` happens within `ms`, false otherwise. */
async function within(ms: number, event: Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(resolve, ms, false));
  try {
    return await Promise.race([event.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** linkpeek's handler served on loopback, as main.ts serves it. */
async function served(target: { port: number }) {
  const app = await testApp(testConfig({ trustPorts: [target.port], env: SLOW_LIMITS }));
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => app.handler(request, { remoteAddr: "127.0.0.1" }),
  );
  return {
    app,
    url: (query: string) => `http://127.0.0.1:${server.addr.port}/${query}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await app[Symbol.asyncDispose]();
    },
  };
}

/** Whether /metrics counts a request answered 499 (client gone), within PROMPTLY_MS. */
async function counted499(metricsUrl: string): Promise<boolean> {
  for (const end = Date.now() + PROMPTLY_MS; Date.now() < end;) {
    const text = await (await fetch(metricsUrl)).text();
    if (/^linkpeek_requests_total\{[^}]*status="499"[^}]*\} 1$/m.test(text)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** A request the client may hang up on; its settling is observed, never unhandled. */
function ask(url: string) {
  const controller = new AbortController();
  const answer = fetch(url, { signal: controller.signal });
  answer.catch(() => {});
  return { answer, hangUp: () => controller.abort() };
}

Deno.test("a client that hangs up abandons the work: the target's connection closes at once", async () => {
  await using target = stallingTarget();
  await using linkpeek = await served(target);
  const query = q(`${target.origin}/`, "&ping=false");
  const client = ask(linkpeek.url(query));
  assert.ok(await within(PROMPTLY_MS, target.arrived()), "the target was asked");
  client.hangUp();
  assert.ok(
    await within(PROMPTLY_MS, target.closed()),
    "the target's connection was still open long after the client left",
  );
  assert.ok(await waitFor(() => waiting(linkpeek.app.handler.services.store) === 0));
  assert.ok(await counted499(linkpeek.url("metrics")), "the request was counted as 499");

  // Nothing of the abandoned work was cached: the next request computes.
  target.release();
  const again = await fetch(linkpeek.url(query));
  assert.equal(again.status, 200);
  assert.equal(again.headers.get("x-cache-status"), "MISS");
  assert.equal((await again.json()).data.title, "made 2");
  assert.equal(target.hits, 2);
});

Deno.test("a request joined to the same computation still gets its answer when the first leaves", async () => {
  await using target = stallingTarget();
  await using linkpeek = await served(target);
  const store = linkpeek.app.handler.services.store;
  const query = q(`${target.origin}/`, "&ping=false");
  const first = ask(linkpeek.url(query));
  assert.ok(await within(PROMPTLY_MS, target.arrived()), "the target was asked");
  const second = ask(linkpeek.url(query));
  assert.ok(await waitFor(() => waiting(store) === 2, PROMPTLY_MS), "the second request joined");
  first.hangUp();
  assert.ok(await waitFor(() => waiting(store) === 1, PROMPTLY_MS), "the first request left");
  target.release();
  const answer = await second.answer;
  assert.equal(answer.status, 200);
  assert.equal((await answer.json()).data.title, "made 1");
  assert.equal(target.hits, 1, "one computation for both");
  assert.equal(target.closedEarly, 0, "the computation was not abandoned");
});

Deno.test("a STALE refresh is not abandoned when a request joined to it leaves", async () => {
  await using target = stallingTarget();
  await using linkpeek = await served(target);
  const store = linkpeek.app.handler.services.store;
  const query = q(`${target.origin}/`, "&ping=false");
  target.holding = false;
  const made = await fetch(linkpeek.url(query));
  assert.equal((await made.json()).data.title, "made 1");
  target.holding = true;
  target.reset();

  const stale = await fetch(linkpeek.url(`${query}&staleTtl=0`));
  assert.equal(stale.headers.get("x-cache-status"), "STALE");
  await stale.body?.cancel();
  assert.ok(await within(PROMPTLY_MS, target.arrived()), "the refresh asked the target");
  const forced = ask(linkpeek.url(`${query}&force=true`));
  assert.ok(await waitFor(() => waiting(store) === 2, PROMPTLY_MS), "the forced request joined");
  forced.hangUp();
  assert.ok(await waitFor(() => waiting(store) === 1, PROMPTLY_MS), "the forced request left");
  target.release();
  assert.ok(await waitFor(() => waiting(store) === 0, PROMPTLY_MS), "the refresh finished");

  const hit = await fetch(linkpeek.url(query));
  assert.equal(hit.headers.get("x-cache-status"), "HIT");
  assert.equal((await hit.json()).data.title, "made 2", "the refresh stored its answer");
  assert.equal(target.closedEarly, 0, "the refresh was not abandoned");
});

Deno.test("a client that hangs up on an embed stops the fetch of the embedded bytes", async () => {
  const imageAsked = Promise.withResolvers<void>();
  const imageClosed = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const site = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    if (new URL(request.url).pathname !== "/cover.png") {
      return html(`<title>Cover</title><meta property="og:image" content="/cover.png">`);
    }
    imageAsked.resolve();
    const hungUp = new Promise<"hung up">((resolve) =>
      request.signal.addEventListener("abort", () => resolve("hung up"), { once: true })
    );
    if (await Promise.race([hungUp, release.promise]) === "hung up") imageClosed.resolve();
    return new Response("not an image");
  });
  try {
    const origin = `http://127.0.0.1:${site.addr.port}`;
    await using linkpeek = await served({ port: site.addr.port });
    const client = ask(linkpeek.url(q(`${origin}/`, "&ping=false&embed=image.url")));
    assert.ok(await within(PROMPTLY_MS, imageAsked.promise), "the embedded image was asked for");
    client.hangUp();
    assert.ok(
      await within(PROMPTLY_MS, imageClosed.promise),
      "the image's connection was still open long after the client left",
    );
    assert.ok(await counted499(linkpeek.url("metrics")), "the request was counted as 499");
  } finally {
    release.resolve();
    await site.shutdown();
  }
});
