import assert from "node:assert/strict";
import { prerenderReason, visibleTextLength } from "../../lib/api/prerender.ts";
import type { NetworkHooks } from "../../lib/guard/types.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import {
  CHALLENGES,
  type Imitation,
  MOUNT_SCRIPT,
  ORDINARY,
  REAL_PAGE,
  REAL_TITLE,
  SHELLS,
} from "./_prerender_pages.ts";

Deno.test("prerenderReason() knows every imitation and no ordinary page", async (t) => {
  for (const page of [...CHALLENGES, ...SHELLS]) {
    await t.step(`${page.name}: ${page.reason}`, () => {
      assert.equal(prerenderReason(page.html, page.status), page.reason);
    });
  }
  for (const page of ORDINARY) {
    await t.step(`${page.name}: none`, () => {
      assert.equal(prerenderReason(page.html, page.status), null);
    });
  }
});

Deno.test("visibleTextLength() skips markup and non-content elements, stops where asked", () => {
  const page = "<html><head><title>Title</title><style>p{}</style></head><body> <p>a  b</p>" +
    "<script>var x = '<p>no</p>';</script><noscript>enable js</noscript>c</body></html>";
  assert.equal(visibleTextLength(page, 100), "a bc".length);
  assert.equal(visibleTextLength("x".repeat(1000), 10), 10);
  // Unclosed elements and stray brackets end the count instead of looping.
  assert.equal(visibleTextLength("<script>".repeat(50_000), 100), 0);
  assert.equal(visibleTextLength("<".repeat(100_000), 100), 0);
  // Markup in any case: the page is read as served, not lower-cased first.
  assert.equal(visibleTextLength("<SCRIPT>var x = 1;</Script><P>ab</P><STYLE>p{}</STYLE>", 100), 2);
});

Deno.test("prerenderReason() still finds a challenge's markers on a wordy page with its status", () => {
  const wordy = `<html><body><p>${"Words of an interstitial. ".repeat(100)}</p>` +
    `<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>`;
  assert.equal(prerenderReason(wordy, 403), "challenge");
  assert.equal(prerenderReason(wordy, 200), null);
});

/** Script paths a shell loads (src= and import("...")): each gets the mounting script. */
function scriptPaths(page: Imitation): string[] {
  return [...page.html.matchAll(/(?:src=|import\()["']?(\/[^"')\s>]+\.js)/g)].map((m) => m[1]!);
}

/** One loopback site: /<name> is the imitation until the "solved" cookie is set. */
function site() {
  const mountPaths = new Set(SHELLS.flatMap(scriptPaths));
  const pages = new Map([...CHALLENGES, ...SHELLS, ...ORDINARY].map((p) => [`/${p.name}`, p]));
  return serve((request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    if (mountPaths.has(path)) {
      return new Response(MOUNT_SCRIPT, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/real") return html(REAL_PAGE);
    const page = pages.get(path);
    if (!page) return new Response("not found", { status: 404 });
    if (/\bsolved=1\b/.test(request.headers.get("cookie") ?? "")) return html(REAL_PAGE);
    return html(page.html, { status: page.status });
  });
}

/** No name resolves: the imitations' third-party scripts fail without leaving the machine. */
const offline: NetworkHooks = { resolver: () => Promise.reject(new Error("test: no DNS")) };

Deno.test("prerender=auto renders every challenge and shell, never an ordinary page", async (t) => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }), offline);
  const url = (name: string) => `${target.origin}/${encodeURIComponent(name)}`;

  for (const page of [...CHALLENGES, ...SHELLS]) {
    await t.step(`${page.name} is rendered to the real page`, async () => {
      const { status, headers, body } = await app.json(q(url(page.name), "&ping=false"));
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(headers.get("x-fetch-mode"), "prerender");
      assert.equal(body.data.title, REAL_TITLE);
      assert.equal(body.statusCode, 200);
    });
  }
  for (const page of ORDINARY) {
    await t.step(`${page.name} is answered from the fetch alone`, async () => {
      const before = target.hits;
      const { headers, body } = await app.json(q(url(page.name), "&ping=false"));
      assert.equal(headers.get("x-fetch-mode"), "fetch");
      assert.equal(body.statusCode, page.status);
      // One request: the fetcher's. A browser visit would have asked again.
      assert.deepEqual(target.paths.slice(before).map(decodeURIComponent), [`/${page.name}`]);
    });
  }
});

Deno.test("prerender=auto falls back to the fetched HTML when the browser fails", async () => {
  await using target = site();
  const config = testConfig({
    trustPorts: [target.port],
    env: { CHROMIUM_PATH: "/nonexistent/chromium" },
  });
  await using app = await testApp(config, offline);
  const { status, headers, body } = await app.json(
    q(`${target.origin}/create-react-app`, "&ping=false"),
  );
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(headers.get("x-fetch-mode"), "fetch");
  assert.equal(body.data.title, "React App");
  assert.equal(body.data.description, "Web site created using create-react-app");
});
