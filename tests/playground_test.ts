import assert from "node:assert/strict";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { RULE_TYPES } from "../lib/extract/custom/value_types.ts";
import { playgroundAsset, wantsPlayground } from "../lib/playground/mod.ts";
import { html, type Routes, serve, testConfig } from "./_fixtures.ts";
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

/** Headless Chromium on a fresh profile, closed and removed on dispose. */
async function launch(): Promise<{ browser: Browser } & AsyncDisposable> {
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
  return {
    browser,
    async [Symbol.asyncDispose]() {
      await browser.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** A loopback site, linkpeek trusting it, and a Chromium page watched for violations. */
async function playgroundSession(routes: Routes) {
  const site = serve(routes);
  const app = await serveLinkpeek(
    testConfig({ trustPorts: [site.port], env: { CHROMIUM_PATH: CHROMIUM } }),
  );
  const chromium = await launch();
  const page = await chromium.browser.newPage();
  return {
    site,
    app,
    browser: chromium.browser,
    page,
    violations: watchViolations(page),
    async [Symbol.asyncDispose]() {
      await chromium[Symbol.asyncDispose]();
      await app[Symbol.asyncDispose]();
      await site[Symbol.asyncDispose]();
    },
  };
}

/** CSP violations and page errors seen on `page`, as they happen. */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(String(error)));
  return violations;
}

/** No storage, no cookie (the key is never kept), and no violation seen. */
async function assertNothingStored(page: Page, violations: string[]): Promise<void> {
  const stored = await page.evaluate(() => ({
    local: (globalThis as Any).localStorage.length,
    session: (globalThis as Any).sessionStorage.length,
    cookie: (globalThis as Any).document.cookie,
  }));
  assert.deepEqual(stored, { local: 0, session: 0, cookie: "" });
  assert.deepEqual(violations, []);
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
  await using session = await playgroundSession({
    "/page": () => html(PAGE),
    "/cover.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  });
  const { site, app, page, violations } = session;

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
        () => ((globalThis as Any).document.querySelector("#card-image") as Any).naturalWidth === 2,
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
    await assertNothingStored(page, violations);
  });
});

Deno.test("the playground's rule types are the API's", async () => {
  const page = await (await playgroundAsset("/"))!.text();
  const select = /<select id="rule-type">([\s\S]*?)<\/select>/.exec(page)![1]!;
  const types = [...select.matchAll(/<option>([a-z]+)<\/option>/g)].map((m) => m[1]);
  assert.deepEqual(types, [...RULE_TYPES]);
});

const ARTICLE = `<!doctype html><html lang="en"><head>
<title>An article</title>
<meta property="og:title" content="An article with a price">
<meta property="article:published_time" content="2026-01-02T03:04:05Z">
<link rel="alternate" type="application/json+oembed" href="/oembed.json">
</head><body><article><h1>Heading</h1>
<p>Some <strong>bold</strong> text, and a price: <span class="price">42.50</span>.</p>
<p>A second paragraph long enough to count as the main content of this page.</p>
</article></body></html>`;

const OEMBED = {
  type: "rich",
  version: "1.0",
  html: '<iframe src="https://player.invalid/embed/1" width="480" height="270"></iframe>',
};

/** Submits the form and waits for its answer (status set, not loading); returns the status. */
async function submit(page: Page): Promise<string> {
  await page.$eval("#status", (el) => ((el as Any).textContent = ""));
  await page.click("#submit");
  return await waitForAnswer(page);
}

async function waitForAnswer(page: Page): Promise<string> {
  const status = await page.waitForFunction(
    () => {
      const text = (globalThis as Any).document.querySelector("#status").textContent;
      return text !== "" && text !== "Loading…" ? text : false;
    },
    { timeout: 60_000 },
  );
  return await status.jsonValue() as string;
}

/** Which result parts are on screen (computed style, not only the attribute). */
function shownParts(page: Page): Promise<Record<string, boolean>> {
  return page.evaluate(() => {
    const out: Record<string, boolean> = {};
    for (const id of ["card", "shot", "pdf-row", "custom", "embed", "md"]) {
      const el = (globalThis as Any).document.getElementById(id);
      out[id] = (globalThis as Any).getComputedStyle(el).display !== "none";
    }
    return out;
  });
}

Deno.test("the playground in Chromium: markdown, dates, iframe, pdf, a custom rule, failures and shared addresses", async (t) => {
  await using session = await playgroundSession({
    "/article": () => html(ARTICLE),
    "/oembed.json": () => Response.json(OEMBED),
  });
  const { site, app, browser, page, violations } = session;
  await page.goto(`${app.origin}/`, { waitUntil: "load" });
  let shared = "";

  await t.step(
    "markdown as text, a readable date, oEmbed HTML as text, a custom rule",
    async () => {
      await page.type("#url", `${site.origin}/article`);
      await page.click("#markdown");
      await page.click("#iframe");
      await page.type("#rule-name", "price");
      await page.type("#rule-selector", ".price");
      await page.select("#rule-type", "number");
      const status = await submit(page);
      assert.match(status, /^200 /);
      const shown = await page.evaluate(() => {
        const d = (globalThis as Any).document;
        const time = d.querySelector("#card-meta time");
        return {
          json: JSON.parse(d.querySelector("#json").textContent),
          markdown: d.querySelector("#md-text").textContent,
          markupInMarkdown: d.querySelectorAll("#md h1, #md strong, #md p").length,
          time: time && { datetime: time.getAttribute("datetime"), text: time.textContent },
          embed: d.querySelector("#embed-html").textContent,
          iframes: d.querySelectorAll("iframe").length,
          customName: d.querySelector("#custom-name").textContent,
          customValue: d.querySelector("#custom-value").textContent,
          hash: (globalThis as Any).location.hash,
          mql: d.querySelector("#mql").textContent,
          curl: d.querySelector("#curl").textContent,
        };
      });
      assert.equal(shown.json.status, "success");
      assert.equal(shown.markdown, shown.json.data.markdown);
      assert.match(shown.markdown, /# Heading/);
      assert.match(shown.markdown, /\*\*bold\*\*/);
      assert.equal(shown.markupInMarkdown, 0, "markdown is never rendered as HTML");

      assert.equal(shown.time?.datetime, "2026-01-02T03:04:05.000Z");
      assert.match(shown.time!.text, /2026/);
      assert.match(shown.time!.text, /UTC$/);
      assert.doesNotMatch(shown.time!.text, /T03|05\.000Z/, "not the raw ISO text");

      assert.equal(shown.embed, OEMBED.html);
      assert.equal(shown.iframes, 0, "oEmbed HTML is shown as text, never inserted");

      assert.equal(shown.customName, "price");
      assert.equal(shown.customValue, "42.5");
      assert.equal(shown.json.data.price, 42.5);

      const hash = new URLSearchParams(shown.hash.slice(1));
      assert.equal(hash.get("url"), `${site.origin}/article`);
      assert.equal(hash.get("markdown"), "true");
      assert.equal(hash.get("iframe"), "true");
      assert.equal(hash.get("data.price.selector"), ".price");
      assert.equal(hash.get("data.price.type"), "number");
      assert.match(
        shown.mql,
        /data: \{\n {4}price: \{\n {6}selector: "\.price",\n {6}type: "number",/,
      );
      assert.match(shown.mql, /markdown: true,/);
      assert.match(
        shown.curl,
        /--data-urlencode 'data\.price\.selector=\.price'|-d 'data\.price\.selector=\.price'/,
      );
      assert.deepEqual(await shownParts(page), {
        card: true,
        shot: false,
        "pdf-row": false,
        custom: true,
        embed: true,
        md: true,
      });
      shared = page.url();
    },
  );

  await t.step("pdf links the hosted PDF", async () => {
    await page.click("#pdf");
    assert.match(await submit(page), /^200 /);
    const pdf = await page.evaluate(async () => {
      const link = (globalThis as Any).document.querySelector("#pdf-link");
      const response = await fetch(link.href);
      return {
        href: link.href,
        meta: (globalThis as Any).document.querySelector("#pdf-meta").textContent,
        type: response.headers.get("content-type"),
        magic: new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5)),
      };
    });
    assert.ok(pdf.href.startsWith(`${app.origin}/assets/`), pdf.href);
    assert.match(pdf.href, /\.pdf$/);
    assert.equal(pdf.type, "application/pdf");
    assert.equal(pdf.magic, "%PDF-");
    assert.match(pdf.meta, /B$/, "its size");
    assert.equal((await shownParts(page))["pdf-row"], true);
    await page.click("#pdf");
  });

  await t.step("a failed request leaves nothing of the previous answer on screen", async () => {
    await page.$eval("#url", (input) => ((input as Any).value = "http://nothing.invalid/"));
    await page.type("#apiKey", "sk-never-in-the-address");
    const status = await submit(page);
    assert.match(status, /^EPRO: /);
    assert.deepEqual(await shownParts(page), {
      card: false,
      shot: false,
      "pdf-row": false,
      custom: false,
      embed: false,
      md: false,
    });
    assert.doesNotMatch(page.url(), /sk-never/, "the key stays out of the address bar");
    await page.$eval("#apiKey", (input) => ((input as Any).value = ""));
    assert.match(await submit(page), /^EFETCH: /);
    assert.equal((await shownParts(page)).card, false);
  });

  await t.step("a shared address runs its query again on load", async () => {
    const fresh = await browser.newPage();
    fresh.on("pageerror", (error) => violations.push(String(error)));
    await fresh.goto(shared, { waitUntil: "load" });
    assert.match(await waitForAnswer(fresh), /^200 /);
    const restored = await fresh.evaluate(() => {
      const d = (globalThis as Any).document;
      return {
        url: d.querySelector("#url").value,
        markdown: d.querySelector("#markdown").checked,
        iframe: d.querySelector("#iframe").checked,
        pdf: d.querySelector("#pdf").checked,
        ping: d.querySelector("#ping").checked,
        rule: [
          d.querySelector("#rule-name").value,
          d.querySelector("#rule-selector").value,
          d.querySelector("#rule-attr").value,
          d.querySelector("#rule-type").value,
        ],
        title: d.querySelector("#card-title").textContent,
        custom: d.querySelector("#custom-value").textContent,
      };
    });
    assert.deepEqual(restored, {
      url: `${site.origin}/article`,
      markdown: true,
      iframe: true,
      pdf: false,
      ping: true,
      rule: ["price", ".price", "", "number"],
      title: "An article with a price",
      custom: "42.5",
    });
    // An address pasted over this one (only the fragment changes) runs too.
    await fresh.evaluate((url) => {
      (globalThis as Any).document.querySelector("#status").textContent = "";
      (globalThis as Any).location.hash = new URLSearchParams({ url, pdf: "true" }).toString();
    }, `${site.origin}/article`);
    assert.match(await waitForAnswer(fresh), /^200 /);
    const after = await fresh.evaluate(() => ({
      pdf: (globalThis as Any).document.querySelector("#pdf").checked,
      markdown: (globalThis as Any).document.querySelector("#markdown").checked,
      rule: (globalThis as Any).document.querySelector("#rule-name").value,
      hash: (globalThis as Any).location.hash,
    }));
    assert.deepEqual(after, {
      pdf: true,
      markdown: false,
      rule: "",
      hash: `#${new URLSearchParams({ url: `${site.origin}/article`, pdf: "true" })}`,
    });
    await fresh.close();
  });

  await t.step("nothing stored, no CSP violation", async () => {
    await assertNothingStored(page, violations);
  });
});
