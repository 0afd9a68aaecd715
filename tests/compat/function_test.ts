// The functions under test log to their sandbox's console, which `logging` captures.
// deno-lint-ignore-file no-console
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import microlinkFunction from "@microlink/function";
import type { Any } from "./_mql.ts";
import { decode } from "../browser/_helpers.ts";
import { descendants } from "../_processes.ts";
import { startParity, TITLE } from "./_parity_target.ts";

/** The package's types describe an ES default export; under Deno it is the CJS function. */
const microlink = microlinkFunction as Any;

/** Sandboxes of `function` still running below this process (linkpeek serves in-process). */
async function sandboxes(): Promise<number[]> {
  const found = [];
  for (const pid of await descendants(Deno.pid)) {
    const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`).catch(() => "");
    if (cmdline.includes("function/runner.js")) found.push(pid);
  }
  return found;
}

Deno.test("function through @microlink/function: Puppeteer's page API, isolated", async (t) => {
  await using parity = await startParity();
  const { endpoint, canary } = parity;
  const call = (fn: Any, opts: Record<string, unknown> = {}, path = "/form") =>
    microlink(fn, { endpoint })(parity.url(path), { force: true, ...opts });

  await t.step("type, click, waitForSelector, $eval, $$eval, title, url, content", async () => {
    const answer = await call(async ({ page }: Any) => {
      await page.type("#name", "Kiko");
      await page.click("#go");
      const found = await page.waitForSelector("#greeting", { timeout: 5000 });
      return {
        found: await found.evaluate((e: Any) => e.id),
        greeting: await page.$eval("#greeting", (el: Any) => el.textContent),
        items: await page.$$eval(
          "li",
          (els: Any[], sep: string) => els.map((e) => e.textContent).join(sep),
          "+",
        ),
        title: await page.title(),
        url: await page.url(),
        content: (await page.content()).includes('id="greeting"'),
        evaluated: await page.evaluate((a: number, b: number) => a * b, 6, 7),
        expression: await page.evaluate("document.querySelectorAll('li').length"),
      };
    });
    assert.equal(answer.isFulfilled, true, JSON.stringify(answer));
    assert.deepEqual(answer.value, {
      found: "greeting",
      greeting: "Hello, Kiko",
      items: "x+y",
      title: "Form",
      url: parity.url("/form"),
      content: true,
      evaluated: 42,
      expression: 2,
    });
  });

  await t.step("goto and a click that navigates, behind the egress guard", async () => {
    const answer = await call(async ({ page }: Any) => {
      const response = await page.goto(new URL("/app", await page.url()).href);
      const status = response.status();
      const header = response.headers()["x-parity"];
      const appTitle = await page.title();
      await page.goto(new URL("/form", await page.url()).href);
      await Promise.all([page.waitForNavigation(), page.click("#next")]);
      return { status, header, appTitle, after: await page.title() };
    });
    assert.deepEqual(answer.value, {
      status: 200,
      header: "app",
      appTitle: TITLE,
      after: "Second",
    });

    const refused = await call(({ page, canaryUrl }: Any) => page.goto(canaryUrl), {
      canaryUrl: `${canary.origin}/`,
    });
    assert.equal(refused.isFulfilled, false);
    assert.match(refused.value.message, /egress guard/);
    const scheme = await call(({ page }: Any) => page.goto("file:///etc/hostname"));
    assert.equal(scheme.value.name, "TypeError");
    assert.match(scheme.value.message, /Only http and https/);
    assert.equal(canary.connections, 0);
  });

  await t.step("screenshot: the page's pixels come back as bytes", async () => {
    const answer = await call(async ({ page }: Any) => {
      const bytes = await page.screenshot({ type: "png" });
      const base64 = await page.screenshot({ encoding: "base64" });
      return { isBytes: bytes instanceof Uint8Array, base64 };
    });
    assert.equal(answer.value.isBytes, true);
    const png = Uint8Array.from(atob(answer.value.base64), (c) => c.charCodeAt(0));
    assert.ok(decode(png).width > 100);
  });

  await t.step("known and unknown query parameters, url, html and response arrive", async () => {
    const answer = await call(
      ({ name, greeting, nested, meta, url, html, response }: Any) => ({
        text: `${greeting}, ${name}!`,
        nested,
        meta,
        url,
        html: html.includes("<li>b</li>"),
        status: response.status(),
        header: response.headers()["x-parity"],
      }),
      { name: "Kiko", greeting: "Hello", nested: { deep: "yes" } },
      "/app",
    );
    assert.deepEqual(answer.value, {
      text: "Hello, Kiko!",
      nested: { deep: "yes" },
      meta: false,
      url: parity.url("/app"),
      html: true,
      status: 200,
      header: "app",
    });
    // Unknown parameters change the answer, so they are part of its cache key.
    const echo = microlink(({ name }: Any) => `name is ${name}`, { endpoint });
    assert.equal((await echo(parity.url("/app"), { name: "One" })).value, "name is One");
    assert.equal((await echo(parity.url("/app"), { name: "Other" })).value, "name is Other");
    // A parameter named __proto__ is one more value, never the argument's prototype.
    const query = new URLSearchParams({
      url: parity.url("/app"),
      function: "(argument) => [Object.getPrototypeOf(argument) === Object.prototype, " +
        "argument.polluted ?? null, Object.keys(argument).includes('__proto__')]",
      "__proto__.polluted": "yes",
      meta: "false",
    });
    const raw = await (await fetch(`${endpoint}?${query}`)).json();
    assert.deepEqual(raw.data.function.value, [true, null, true]);
  });

  await t.step("console output is in logging; profiling says how long it ran", async () => {
    const answer = await call(({ page }: Any) => {
      console.log("hello", { n: 1 });
      console.warn("careful");
      return page.title();
    });
    assert.equal(answer.value, "Form");
    assert.deepEqual(answer.logging, { log: ['hello {"n":1}'], warn: ["careful"] });
    assert.equal(typeof answer.profiling.phases.run, "number");
    assert.ok(answer.profiling.memory.heap > 0, JSON.stringify(answer.profiling));
    const loud = await call(() => {
      for (let i = 0; i < 1e5; i++) console.log("x".repeat(100));
      return 1;
    });
    const kept = loud.logging.log.join("").length;
    assert.ok(kept <= 64 * 1024, `${kept} characters kept`);
  });

  await t.step("bounds: a value over the cap, arguments the page API does not take", async () => {
    const big = await call(() => "x".repeat(1_100_000));
    assert.equal(big.isFulfilled, false);
    assert.equal(big.value.name, "RangeError");
    assert.match(big.value.message, /larger than/);
    const bad = await call(({ page }: Any) => page.click("#go", { button: "nope" }));
    assert.equal(bad.value.name, "TypeError");
    assert.match(bad.value.message, /one of left, right, middle/);
    const handle = await call(({ page }: Any) => page.$x("//button"));
    assert.match(handle.value.message, /page.\$x\(\) is not available/);
  });

  await t.step("no file, network, environment or process access; canary untouched", async () => {
    const refusals = {
      read: `() => Deno.readTextFile("/etc/hostname")`,
      net: `({ canaryUrl }) => fetch(canaryUrl)`,
      env: `() => Deno.env.get("HOME")`,
      run: `() => new Deno.Command("/usr/bin/true").output()`,
      // A local module import would read the file as code: refused by the import map.
      import: `() => import("file:///etc/hostname")`,
    };
    for (const [what, source] of Object.entries(refusals)) {
      const answer: Any = await mql(parity.url("/app"), {
        endpoint,
        meta: false,
        force: true,
        function: source,
        canaryUrl: `${canary.origin}/`,
      } as Any).then((r: Any) => r.data.function);
      assert.equal(answer.isFulfilled, false, what);
      assert.match(answer.value.message, /Requires (read|net|env|run) access/, what);
    }
    const denied: Any = (await call(() => Deno.readTextFile("/etc/hostname"))).value;
    assert.deepEqual(
      { code: denied.code, permission: denied.permission },
      { code: "ERR_ACCESS_DENIED", permission: "read" },
    );
    assert.equal(canary.connections, 0);
  });

  await t.step("an endless loop in the function's own code ends at the deadline", async () => {
    const started = performance.now();
    const answer = await call(() => {
      while (true) { /* never yields */ }
    }, { timeout: "6s" });
    const took = performance.now() - started;
    assert.equal(answer.isFulfilled, false);
    assert.equal(answer.value.name, "TimeoutError");
    assert.ok(answer.profiling.phases.total < 6000, JSON.stringify(answer.profiling));
    assert.ok(took < 6000 + 3000, `answered after ${took} ms`);
    assert.deepEqual(await sandboxes(), [], "the sandbox was killed");
    // A page call that never returns (the page's own loop) ends the same way.
    const stuck = await call(({ page }: Any) =>
      page.evaluate(() => {
        while (true) { /* the renderer never yields */ }
      }), { timeout: "6s" });
    assert.equal(stuck.value.name, "TimeoutError");
    assert.deepEqual(await sandboxes(), []);
  });

  await t.step("unbounded allocation hits the sandbox's heap cap, not linkpeek", async () => {
    const answer = await call(() => {
      const all = [];
      while (true) all.push(new Array(1e5).fill(Math.random()));
    }, { timeout: "20s" });
    assert.equal(answer.value.name, "MemoryError", JSON.stringify(answer.value));
    assert.match(answer.value.message, /out of memory/);
  });

  await t.step("the service is healthy after all of that", async () => {
    const result: Any = await mql(parity.url("/app"), { endpoint, force: true });
    assert.equal(result.data.title, TITLE);
    assert.equal((await call(() => 1 + 1)).value, 2);
    await parity.app.handler.services.browser.settled();
    assert.equal(parity.app.handler.services.browser.stats().contexts, 0);
    assert.deepEqual(await sandboxes(), []);
  });
});
