import assert from "node:assert/strict";
import puppeteer, { type Browser } from "puppeteer-core";
import { playgroundAsset, wantsPlayground } from "../lib/playground/mod.ts";
import { html, serveRoutes, testConfig } from "./_server.ts";
import { serveLinkpeek } from "./ops/_listen.ts";

const CHROMIUM = "/usr/bin/chromium";

// Code passed to page.evaluate runs in the page; this file is type-checked without the DOM lib
// (adding it would change the globals of every test checked together with it).
// deno-lint-ignore no-explicit-any
type Any = any;
const CSP = "default-src 'self'; img-src * data:; media-src *";

// A 2x1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwSZGBgYAEPfBf9bxTkLAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

const TITLE = "<b>Bold</b> & the playground target";
const PAGE = `<!doctype html><html lang="en"><head>
<title>fallback</title>
<meta property="og:title" content="&lt;b&gt;Bold&lt;/b&gt; &amp; the playground target">
<meta name="description" content="A page served on loopback for the playground test.">
<meta property="og:image" content="/cover.png">
<meta property="og:url" content="javascript:alert(1)">
</head><body><h1>Target</h1><p>Hello.</p></body></html>`;

async function launch(): Promise<{ browser: Browser; profile: string }> {
  try {
    await Deno.stat(CHROMIUM);
  } catch {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  }
  const profile = await Deno.makeTempDir({ prefix: "linkpeek-playground-" });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return { browser, profile };
}

Deno.test("wantsPlayground() is true only for a browser's GET / without a query", () => {
  const get = (url: string, accept: string, method = "GET") => {
    const request = new Request(url, { method, headers: { accept } });
    return wantsPlayground(request, new URL(request.url));
  };
  const browserAccept = "text/html,application/xhtml+xml,*/*;q=0.8";
  assert.equal(get("http://x.test/", browserAccept), true);
  assert.equal(get("http://x.test/", browserAccept, "HEAD"), true);
  assert.equal(get("http://x.test/", "application/json"), false);
  assert.equal(get("http://x.test/", "*/*"), false);
  assert.equal(get("http://x.test/?url=https://a.test", browserAccept), false);
  assert.equal(get("http://x.test/?", browserAccept), true, "an empty query is no query");
  assert.equal(get("http://x.test/?force=true", browserAccept), false);
  assert.equal(get("http://x.test/health", browserAccept), false);
  assert.equal(get("http://x.test/", browserAccept, "POST"), false);
});

Deno.test("playgroundAsset() serves the page and its files with the contract's CSP", async (t) => {
  const cases: [string, string][] = [
    ["/", "text/html; charset=utf-8"],
    ["/playground.js", "text/javascript; charset=utf-8"],
    ["/playground.css", "text/css; charset=utf-8"],
  ];
  for (const [path, type] of cases) {
    await t.step(path, async () => {
      const response = await playgroundAsset(path);
      assert.ok(response);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), type);
      assert.equal(response.headers.get("content-security-policy"), CSP);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      assert.ok((await response.text()).length > 500);
    });
  }
  await t.step("other paths are null", async () => {
    assert.equal(await playgroundAsset("/index.html/../mod.ts"), null);
    assert.equal(await playgroundAsset("/mod.ts"), null);
    assert.equal(await playgroundAsset("/nope"), null);
  });
  await t.step("no inline script, no handler attributes, nothing from another origin", async () => {
    const page = await (await playgroundAsset("/"))!.text();
    const scripts = [...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(scripts, ['<script src="/playground.js" defer>']);
    assert.doesNotMatch(page, /<script\b[^>]*>\s*[^<\s]/);
    assert.doesNotMatch(page, /\son[a-z]+\s*=/i);
    for (const path of ["/", "/playground.js", "/playground.css"]) {
      const text = await (await playgroundAsset(path))!.text();
      assert.doesNotMatch(
        text,
        /(src|href)\s*=\s*["']?(https?:)?\/\//i,
        `${path} loads from a CDN`,
      );
      assert.doesNotMatch(text, /@import|localStorage|sessionStorage|document\.cookie|innerHTML/);
    }
  });
});

Deno.test("the playground in Chromium shows a loopback page's preview and screenshot", async (t) => {
  await using site = serveRoutes({
    "/page": () => html(PAGE),
    "/cover.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  });
  await using app = await serveLinkpeek(
    testConfig({ trustPorts: [site.port], env: { CHROMIUM_PATH: CHROMIUM } }),
  );
  const { browser, profile } = await launch();
  try {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) violations.push(message.text());
    });
    page.on("pageerror", (error) => violations.push(String(error)));

    await t.step("GET / from a browser is the page, under the CSP", async () => {
      const response = await page.goto(`${app.origin}/`, { waitUntil: "load" });
      assert.equal(response?.status(), 200);
      assert.equal(response?.headers()["content-security-policy"], CSP);
      assert.equal(await page.title(), "linkpeek playground");
    });

    await t.step(
      "submitting a URL shows the title, description and image in the card",
      async () => {
        await page.type("#url", `${site.origin}/page`);
        await page.click("#submit");
        await page.waitForFunction(
          () => (globalThis as Any).document.querySelector("#card-title")?.textContent !== "",
          { timeout: 30_000 },
        );
        const card = await page.evaluate(() => ({
          title: (globalThis as Any).document.querySelector("#card-title")!.textContent,
          boldInside: (globalThis as Any).document.querySelectorAll("#card-title b").length,
          href: (globalThis as Any).document.querySelector("#card-title")!.getAttribute("href"),
          description: (globalThis as Any).document.querySelector("#card-description")!.textContent,
          image: ((globalThis as Any).document.querySelector("#card-image") as Any).src,
          json: JSON.parse((globalThis as Any).document.querySelector("#json")!.textContent!),
          curl: (globalThis as Any).document.querySelector("#curl")!.textContent,
          mql: (globalThis as Any).document.querySelector("#mql")!.textContent,
        }));
        assert.equal(card.title, TITLE, "payload text is written as text");
        assert.equal(card.boldInside, 0);
        assert.ok(card.href === null || /^https?:/.test(card.href), `unsafe link ${card.href}`);
        assert.equal(card.description, "A page served on loopback for the playground test.");
        assert.equal(card.image, `${site.origin}/cover.png`);
        assert.equal(card.json.status, "success");
        assert.equal(card.json.data.title, TITLE);
        assert.match(card.curl, new RegExp(`--data-urlencode 'url=${site.origin}/page'`));
        assert.match(card.mql, /import mql from "@microlink\/mql"/);
        assert.match(card.mql, new RegExp(`endpoint: "${app.origin}/"`));
        await page.waitForFunction(
          () =>
            ((globalThis as Any).document.querySelector("#card-image") as Any).naturalWidth === 2,
        );
      },
    );

    await t.step("with screenshot checked the capture is shown", async () => {
      await page.click("#screenshot");
      await page.click("#submit");
      await page.waitForFunction(
        () => {
          const img = (globalThis as Any).document.querySelector("#shot-image") as Any;
          return !(globalThis as Any).document.querySelector("#shot")!.hasAttribute("hidden") &&
            img.naturalWidth > 0;
        },
        { timeout: 60_000 },
      );
      const shot = await page.evaluate(() => {
        const img = (globalThis as Any).document.querySelector("#shot-image") as Any;
        return {
          src: img.src,
          width: img.naturalWidth,
          curl: (globalThis as Any).document.querySelector("#curl")!.textContent,
        };
      });
      assert.ok(shot.src.startsWith(`${app.origin}/assets/`), shot.src);
      assert.ok(shot.width >= 100, `screenshot width ${shot.width}`);
      assert.match(shot.curl!, /-d 'screenshot=true'/);
    });

    await t.step("an API error is shown with its code", async () => {
      await page.$eval(
        "#url",
        (input) => ((input as Any).value = "http://nothing.invalid/"),
      );
      await page.click("#screenshot");
      await page.type("#apiKey", "sk-test");
      await page.click("#submit");
      await page.waitForFunction(() =>
        /EPRO/.test((globalThis as Any).document.querySelector("#status")!.textContent!)
      );
    });

    await t.step("the key is never stored and the page broke no CSP rule", async () => {
      const stored = await page.evaluate(() => ({
        local: (globalThis as Any).localStorage.length,
        session: (globalThis as Any).sessionStorage.length,
        cookie: (globalThis as Any).document.cookie,
      }));
      assert.deepEqual(stored, { local: 0, session: 0, cookie: "" });
      assert.deepEqual(violations, []);
    });
  } finally {
    await browser.close();
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
});
