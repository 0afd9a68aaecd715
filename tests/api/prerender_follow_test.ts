/**
 * `prerender=auto` follows a challenge's own navigations a bounded number of times, for a
 * bounded time: a page that reloads itself forever, or two pages bouncing, end with the
 * fetched HTML, never with the request's timeout.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

const challenge = (script: string) =>
  `<!doctype html><html><head><title>Just a moment...</title></head><body>
<p>Checking your browser before accessing the site.</p><script>${script}</script></body></html>`;

Deno.test("prerender=auto on a page that reloads itself, or two that bounce, answers the fetched HTML", async (t) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await using target = serve({
    // Reloads once into a document whose load never ends (an image held until the test ends).
    "/hold": (request) =>
      /\bsolved=1\b/.test(request.headers.get("cookie") ?? "")
        ? html(challenge("") + `<img src="/never">`, { status: 503 })
        : html(challenge(`document.cookie = "solved=1; path=/"; location.reload();`), {
          status: 503,
        }),
    "/never": async () => {
      await released;
      return new Response("", { status: 404 });
    },
    "/reload": () => html(challenge("location.reload();"), { status: 503 }),
    "/a": () => html(challenge(`location.replace("/b");`), { status: 503 }),
    "/b": () => html(challenge(`location.replace("/a");`), { status: 503 }),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  try {
    for (const path of ["/reload", "/a", "/hold"]) {
      await t.step(path, async () => {
        const before = target.hits;
        const { status, headers, body } = await app.json(
          q(`${target.origin}${path}`, "&ping=false&timeout=25000"),
        );
        assert.equal(status, 200, JSON.stringify(body));
        assert.equal(headers.get("x-fetch-mode"), "fetch");
        assert.equal(body.data.title, "Just a moment...");
        assert.equal(body.data.url, `${target.origin}${path}`);
        // The browser's first load, the three it followed, the one that ended the follow and
        // at most one more started while the visit's tab was closing.
        await app.handler.services.browser.settled();
        const loads = target.seen.slice(before)
          .filter((seen) => /Chrome/.test(seen.headers["user-agent"] ?? "")).length;
        assert.ok(loads >= 2 && loads <= 6, `browser page loads: ${loads}`);
      });
    }
  } finally {
    release();
  }
});
