import assert from "node:assert/strict";
import mql from "@microlink/mql";
import microlinkFunction from "@microlink/function";
import LZString from "lz-string";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { type Any, failure } from "./_mql.ts";
import { decode } from "../browser/_helpers.ts";
import { startParity, TITLE } from "./_parity_target.ts";

const byName = (list: Any[], name: string) => list.find((t: Any) => t.name === name);
/** A function's answer without its profiling and logging (tests/compat/function_test.ts). */
const settled = ({ isFulfilled, isRejected, value }: Any) => ({ isFulfilled, isRejected, value });

Deno.test("insights.technologies through mql: headers, cookies, meta and script markers", async (t) => {
  await using parity = await startParity();
  const { endpoint } = parity;

  await t.step("fetched HTML suffices: no browser is started", async () => {
    const result: Any = await mql(parity.url("/wordpress"), {
      endpoint,
      meta: false,
      insights: { technologies: true, lighthouse: false },
    } as Any);
    const found = result.data.insights.technologies;
    const wordpress = byName(found, "WordPress");
    assert.equal(wordpress.version, "6.4.2", "from the generator meta");
    assert.equal(wordpress.slug, "wordpress");
    assert.ok(wordpress.categories.includes("CMS"));
    assert.equal(wordpress.url, "https://wordpress.org");
    assert.equal(wordpress.logo, "https://www.wappalyzer.com/images/icons/WordPress.svg");
    assert.equal(byName(found, "Nginx").version, "1.25.3", "from the server header");
    assert.equal(byName(found, "PHP").version, "8.2.1", "from x-powered-by and the cookie");
    assert.ok(byName(found, "jQuery"), "from the script path");
    assert.equal(result.data.insights.lighthouse, undefined, "only what was asked");
    assert.equal(result.response.headers.get("x-fetch-mode"), "fetch");
    assert.equal(parity.app.handler.services.browser.stats().launches, 0);
  });

  await t.step("with prerender, on the rendered page", async () => {
    const result: Any = await mql(parity.url("/wordpress"), {
      endpoint,
      meta: false,
      prerender: true,
      insights: { technologies: true, lighthouse: false },
    } as Any);
    assert.equal(result.response.headers.get("x-fetch-mode"), "prerender");
    assert.equal(byName(result.data.insights.technologies, "WordPress").version, "6.4.2");
  });

  await t.step("a page with no markers has none of them", async () => {
    const result: Any = await mql(parity.url("/a11y-good"), {
      endpoint,
      meta: false,
      insights: { technologies: true, lighthouse: false },
    } as Any);
    assert.equal(byName(result.data.insights.technologies, "WordPress"), undefined);
  });
});

Deno.test("function through mql: runs in the page, answers { isFulfilled, isRejected, value }", async (t) => {
  await using parity = await startParity();
  const { endpoint, canary } = parity;
  const run = async (fn: string, extra: Record<string, unknown> = {}) => {
    const result: Any = await mql(parity.url("/app"), {
      endpoint,
      meta: false,
      function: fn,
      force: true,
      ...extra,
    } as Any);
    return result.data.function;
  };

  await t.step("the page's own world, Microlink's page helper, the query as argument", async () => {
    assert.deepEqual(settled(await run("({ page }) => page.title()")), {
      isFulfilled: true,
      isRejected: false,
      value: TITLE,
    });
    assert.deepEqual(
      (await run("({ page }) => page.evaluate(() => window.APP_VERSION)")).value,
      "2.3.1",
    );
    const argument = await run(
      "({ url, meta, page, html }) => ({ url, meta, " +
        "helper: typeof page.evaluate, html: html.includes('<li>b</li>') })",
    );
    assert.deepEqual(argument.value, {
      url: parity.url("/app"),
      meta: false,
      helper: "function",
      html: true,
    });
    assert.deepEqual(
      (await run("async ({ page }) => page.$$eval('li', (items) => items.length)")).value,
      3,
    );
  });

  await t.step("a throw is a rejection with the error's name and message", async () => {
    assert.deepEqual(settled(await run("() => { throw new TypeError('boom') }")), {
      isFulfilled: false,
      isRejected: true,
      value: { name: "TypeError", message: "boom" },
    });
  });

  await t.step("a cyclic value is a rejection, not a crash", async () => {
    const answer = await run("() => { const a = {}; a.self = a; return a }");
    assert.equal(answer.isRejected, true);
    assert.equal(answer.value.name, "TypeError");
    assert.match(answer.value.message, /not JSON/);
  });

  await t.step(
    "source that is not JavaScript is Microlink's EINVALFUNCTION, no visit",
    async () => {
      const error = await failure(run("() => {{{"));
      assert.equal(error.code, "EINVALFUNCTION");
      assert.equal(error.statusCode, 400);
      assert.match(error.description, /syntax error/);
    },
  );

  await t.step("@microlink/function: its compressed code is decoded and run", async () => {
    // The package's types describe an ES default export; under Deno it is the CJS function.
    const title = (microlinkFunction as Any)(({ page }: Any) => page.title(), { endpoint });
    assert.deepEqual(settled(await title(parity.url("/app"), { force: true })), {
      isFulfilled: true,
      isRejected: false,
      value: TITLE,
    });
    // Each of Microlink's aliases: brotli and gzip as base64url, lz-string's URI form.
    const code = "({ page }) => page.$$eval('li', (items) => items.length)";
    const aliases = {
      br: `br#${brotliCompressSync(code).toString("base64url")}`,
      gz: `gz#${gzipSync(code).toString("base64url")}`,
      lz: `lz#${LZString.compressToEncodedURIComponent(code)}`,
    };
    for (const [alias, packed] of Object.entries(aliases)) {
      assert.equal((await run(packed)).value, 3, alias);
    }
    // gzip notices a cut payload; Deno's brotli decoder returns what it has, which no longer
    // parses: EINVALFUNCTION either way.
    const cut = await failure(run(aliases.gz.slice(0, -6)));
    assert.equal(cut.code, "EINVALFUNCTION");
    assert.match(cut.description, /not a valid gz payload/);
    assert.equal((await failure(run(aliases.br.slice(0, -6)))).code, "EINVALFUNCTION");
  });

  await t.step("an endless loop is a timeout answer within the request's deadline", async () => {
    const answer = await run("() => { while (true) {} }", { timeout: "5s" });
    assert.equal(answer.isRejected, true);
    assert.equal(answer.value.name, "TimeoutError");
  });

  await t.step("unbounded allocation ends in a rejection", async () => {
    const answer = await run(
      "() => { const all = []; while (true) all.push(new Array(1e6).fill(Math.random())) }",
      { timeout: "20s" },
    );
    assert.equal(answer.isRejected, true, JSON.stringify(answer));
  });

  await t.step("reaching a canary: refused by the egress guard, never contacted", async () => {
    const answer = await run(`() => fetch("${canary.origin}/").then((r) => r.status)`);
    assert.equal(answer.isRejected, true, JSON.stringify(answer));
    const navigated = await run(`() => { location.href = "${canary.origin}/"; return 1 }`);
    assert.equal(typeof navigated.isRejected, "boolean");
    assert.equal(canary.connections, 0);
  });

  await t.step("the service is healthy after all of that", async () => {
    const result: Any = await mql(parity.url("/app"), { endpoint, force: true });
    assert.equal(result.data.title, TITLE);
    assert.deepEqual((await run("() => 1 + 1")).value, 2);
    await parity.app.handler.services.browser.settled();
    assert.equal(parity.app.handler.services.browser.stats().contexts, 0);
  });
});

Deno.test("data.<key>.evaluate through mql: computed in the page, beside selector rules", async (t) => {
  await using parity = await startParity();
  const { endpoint } = parity;

  await t.step("an expression, a function with a type, and a selector rule together", async () => {
    const result: Any = await mql(parity.url("/app"), {
      endpoint,
      meta: false,
      data: {
        version: { evaluate: "window.APP_VERSION" },
        items: { evaluate: "() => document.querySelectorAll('li').length", type: "number" },
        heading: { selector: "h1" },
        fallback: [{ evaluate: "window.MISSING.deep" }, { selector: "li" }],
      },
    } as Any);
    assert.equal(result.data.version, "2.3.1");
    assert.equal(result.data.items, 3);
    assert.equal(result.data.heading, "Heading");
    assert.equal(result.data.fallback, "a", "a failing evaluate falls back to the next rule");
  });

  await t.step("evaluate beside a selector in one rule is EINVALDATA", async () => {
    const error = await failure(mql(parity.url("/app"), {
      endpoint,
      data: { x: { evaluate: "1", selector: "h1" } },
    } as Any));
    assert.equal(error.code, "EINVALDATA");
    assert.match(error.description, /data\.x/);
  });
});

Deno.test("filename through mql: the hosted capture's URL segment and Content-Disposition", async (t) => {
  await using parity = await startParity();
  const { endpoint } = parity;

  await t.step("a name with a path in it is sanitised to a single segment", async () => {
    const result: Any = await mql(parity.url("/app"), {
      endpoint,
      screenshot: true,
      filename: "../../etc/My Shot.png",
    } as Any);
    const url = new URL(result.data.screenshot.url);
    assert.match(url.pathname, /^\/assets\/[A-Za-z0-9_-]+\/etc-My-Shot\.png$/);
    const image = await fetch(url);
    await image.body?.cancel();
    assert.equal(image.status, 200);
    assert.equal(image.headers.get("content-disposition"), 'inline; filename="etc-My-Shot.png"');
  });

  await t.step("pdf too, and embed keeps the name", async () => {
    const result: Any = await mql(parity.url("/app"), {
      endpoint,
      pdf: true,
      filename: "report",
    } as Any);
    assert.ok(result.data.pdf.url.endsWith("/report.pdf"), result.data.pdf.url);
    const embedded: Any = await mql.buffer(parity.url("/app"), {
      endpoint,
      pdf: true,
      filename: "report",
      embed: "pdf.url",
    } as Any);
    assert.equal(embedded.headers.get("content-disposition"), 'inline; filename="report.pdf"');
  });

  await t.step("a name with nothing usable is EINVALQUERY", async () => {
    const error = await failure(
      mql(parity.url("/app"), { endpoint, screenshot: true, filename: "../.." } as Any),
    );
    assert.equal(error.code, "EINVALQUERY");
    assert.match(error.description, /filename/);
  });
});

Deno.test("screenshot.codeScheme through mql: a JSON target captured highlighted", async (t) => {
  await using parity = await startParity();
  const { endpoint } = parity;
  const corner = async (options: Record<string, unknown> | true) => {
    const result: Any = await mql(parity.url("/data.json"), {
      endpoint,
      meta: false,
      screenshot: options,
      force: true,
    } as Any);
    const bytes = new Uint8Array(await (await fetch(result.data.screenshot.url)).arrayBuffer());
    return decode(bytes).pixel(3, 3).slice(0, 3);
  };

  await t.step("the default theme is Microlink's dark look (atom-one-dark)", async () => {
    assert.deepEqual(await corner(true), [0x28, 0x2c, 0x34]);
  });

  await t.step("a named theme, and Microlink's own theme names", async () => {
    assert.deepEqual(await corner({ codeScheme: "github" }), [0xff, 0xff, 0xff]);
    assert.deepEqual(await corner({ codeScheme: "ghcolors" }), [0xff, 0xff, 0xff]);
  });

  await t.step("an unknown theme is EINVALQUERY naming the parameter", async () => {
    const error = await failure(mql(parity.url("/data.json"), {
      endpoint,
      screenshot: { codeScheme: "no-such-theme" },
    } as Any));
    assert.equal(error.code, "EINVALQUERY");
    assert.match(error.description, /screenshot\.codeScheme/);
  });
});

Deno.test("insights.lighthouse through mql: a report whose scores move the way the page does", async (t) => {
  await using parity = await startParity();
  const { endpoint, canary } = parity;
  const audit = async (path: string, onlyCategories = ["accessibility"]) => {
    const result: Any = await mql(parity.url(path), {
      endpoint,
      meta: false,
      insights: { technologies: false, lighthouse: { onlyCategories } },
      force: true,
    } as Any);
    return result.data.insights.lighthouse;
  };

  await t.step("an image without alt text loses accessibility points", async () => {
    const good = await audit("/a11y-good");
    const bad = await audit("/a11y-bad");
    assert.equal(good.lighthouseVersion, "13.5.0");
    assert.equal(good.finalDisplayedUrl, parity.url("/a11y-good"));
    assert.deepEqual(Object.keys(good.categories), ["accessibility"]);
    assert.equal(good.audits["image-alt"].score, 1);
    assert.equal(bad.audits["image-alt"].score, 0);
    assert.ok(
      bad.categories.accessibility.score < good.categories.accessibility.score,
      `${bad.categories.accessibility.score} < ${good.categories.accessibility.score}`,
    );
    assert.equal(good.i18n, undefined, "bookkeeping is left out");
  });

  await t.step("one run at a time: a second is EBUSY with Retry-After", async () => {
    const { lighthouse } = parity.app.handler.services;
    let settled = false;
    const first = audit("/a11y-good").finally(() => settled = true);
    // Wait for the event (the run holding its slot), not for a sleep.
    while (lighthouse.running() === 0 && !settled) await new Promise((r) => setTimeout(r, 5));
    assert.equal(lighthouse.running(), 1);
    // Straight to the API: mql itself would retry a 503 after its Retry-After.
    const query = new URLSearchParams({
      url: parity.url("/a11y-bad"),
      "insights.lighthouse": "true",
      force: "true",
    });
    const busy = await fetch(`${endpoint}?${query}`);
    const body = await busy.json();
    assert.equal(busy.status, 503);
    assert.equal(body.code, "EBUSY");
    assert.equal(busy.headers.get("retry-after"), "10");
    assert.equal((await first).audits["image-alt"].score, 1);
    assert.equal(lighthouse.running(), 0);
  });

  await t.step("a run past the request's deadline is ETIMEOUT and frees its slot", async () => {
    const { lighthouse } = parity.app.handler.services;
    const query = new URLSearchParams({
      url: parity.url("/a11y-good"),
      "insights.lighthouse": "true",
      timeout: "1500",
      force: "true",
    });
    const late = await fetch(`${endpoint}?${query}`);
    assert.equal(late.status, 504);
    assert.equal((await late.json()).code, "ETIMEOUT");
    assert.equal(lighthouse.running(), 0, "the Worker and its Chromium were stopped");
    assert.equal((await audit("/a11y-good")).audits["image-alt"].score, 1, "the next run works");
  });

  await t.step("its Chromium's requests go through the guarded egress proxy", async () => {
    const report = await audit("/canary-image", ["performance"]);
    const requests = report.audits["network-requests"].details.items.map((i: Any) => i.url);
    assert.ok(requests.includes(`${canary.origin}/pixel.png`), "Lighthouse asked for it");
    assert.equal(canary.connections, 0, "and the guard refused it");
  });
});
