/**
 * `function` through @microlink/function, the parts Microlink documents beyond the first
 * round: the `headers` argument, page.$ / page.$$ element handles, page.mouse, setViewport,
 * goBack / goForward behind the egress guard, waitForTimeout, profiling in Microlink's shape,
 * and npm packages (refused: nothing is installed at run time).
 */
import assert from "node:assert/strict";
import microlinkFunction from "@microlink/function";
import type { Any } from "./_mql.ts";
import { startParity } from "./_parity_target.ts";

/** The package's types describe an ES default export; under Deno it is the CJS function. */
const microlink = microlinkFunction as Any;

Deno.test("function: headers, element handles, mouse, viewport, history, profiling", async (t) => {
  await using parity = await startParity();
  const { endpoint, canary } = parity;
  const call = (
    fn: Any,
    opts: Record<string, unknown> = {},
    path = "/form",
    gotOpts: Record<string, unknown> = {},
  ) => microlink(fn, { endpoint }, gotOpts)(parity.url(path), { force: true, ...opts });

  await t.step(
    "headers: what the browser sent the target, without the caller's secrets",
    async () => {
      const answer = await call(
        ({ headers }: Any) => headers,
        {},
        "/app",
        {
          headers: { "x-api-header-x-secret": "s3cret", "x-api-header-authorization": "Bearer t" },
        },
      );
      assert.equal(answer.isFulfilled, true, JSON.stringify(answer));
      const sent = parity.site.seen.filter((s) => s.path === "/app" && s.headers["x-secret"]);
      assert.ok(sent.length > 0, "the target got the secret header");
      const agents = sent.map((s) => s.headers["user-agent"]);
      assert.ok(agents.includes(answer.value["user-agent"]), JSON.stringify(answer.value));
      assert.equal(answer.value["x-secret"], undefined);
      assert.equal(answer.value.authorization, undefined);
      assert.equal(answer.value["proxy-connection"], undefined);
      assert.equal(answer.value.host, new URL(parity.url("/app")).host);
      assert.ok(!JSON.stringify(answer.value).includes("s3cret"));
    },
  );

  await t.step("page.$ and page.$$: element handles that click, type and read", async () => {
    const answer = await call(async ({ page }: Any) => {
      const input = await page.$("#name");
      await input.type("Kiko");
      const button = await page.$("#go");
      const box = await button.boundingBox();
      await button.click();
      await page.waitForSelector("#greeting");
      const greeting = await page.$("#greeting");
      const text = await (await greeting.getProperty("textContent")).jsonValue();
      const items = await page.$$("li");
      const texts = await Promise.all(
        items.map((li: Any) => li.evaluate((e: Any) => e.textContent)),
      );
      const list = await page.$("ul");
      const inList = await list.$$eval("li", (els: Any[]) => els.length);
      await list.dispose();
      const disposed = await list.evaluate(() => 1).catch((e: Any) => e.message);
      return {
        text,
        texts,
        inList,
        missing: await page.$("#nope"),
        hasBox: box.width > 0 && box.height > 0,
        disposed,
      };
    });
    assert.equal(answer.isFulfilled, true, JSON.stringify(answer));
    assert.equal(answer.value.text, "Hello, Kiko");
    assert.deepEqual(answer.value.texts, ["x", "y"]);
    assert.equal(answer.value.inList, 2);
    assert.equal(answer.value.missing, null);
    assert.equal(answer.value.hasBox, true);
    assert.match(answer.value.disposed, /disposed/);
    const many = await call(async ({ page }: Any) => {
      await page.evaluate(() =>
        document.body.append(...Array.from({ length: 1500 }, () => document.createElement("i")))
      );
      const first = await page.$$("i").catch((e: Any) => `${e.name}: ${e.message}`);
      const some = await page.$$("li");
      return { first, some: some.length };
    });
    assert.match(many.value.first, /^RangeError: .*at most 1000 element handles/);
    assert.equal(many.value.some, 2, "a refused $$ holds nothing");
  });

  await t.step("what does not cross is a clear TypeError naming what is offered", async () => {
    const answer = await call(({ page }: Any) => page.cookies());
    assert.equal(answer.isFulfilled, false);
    assert.equal(answer.value.name, "TypeError");
    assert.match(answer.value.message, /page\.cookies\(\) is not available.*offered: .*\$\$/);
    const printed = await call(async ({ page }: Any) => `${page} ${await page.$("#go")}`);
    assert.equal(printed.value, "[object Object] [object Object]");
    const handle = await call(async ({ page }: Any) => (await page.$("#go")).asElement());
    assert.match(handle.value.message, /ElementHandle\.asElement\(\) is not available/);
  });

  await t.step("page.mouse, setViewport and waitForTimeout", async () => {
    const answer = await call(async ({ page }: Any) => {
      await page.setViewport({ width: 500, height: 300 });
      const width = await page.evaluate(() => innerWidth);
      await page.type("#name", "Mouse");
      const box = await (await page.$("#go")).boundingBox();
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForSelector("#greeting");
      await page.evaluate(() => {
        document.body.style.height = "5000px";
        (globalThis as Any).presses = [];
        addEventListener("mousedown", () => (globalThis as Any).presses.push("down"));
        addEventListener("mouseup", () => (globalThis as Any).presses.push("up"));
      });
      await page.mouse.move(10, 10, { steps: 2 });
      await page.mouse.down();
      await page.mouse.up();
      await page.mouse.wheel({ deltaY: 400 });
      await page.waitForFunction(() => scrollY > 0);
      await page.waitForTimeout(1);
      return {
        width,
        greeting: await page.$eval("#greeting", (e: Any) => e.textContent),
        presses: await page.evaluate(() => (globalThis as Any).presses),
        viewport: await page.viewport(),
      };
    });
    assert.equal(answer.isFulfilled, true, JSON.stringify(answer));
    assert.equal(answer.value.width, 500);
    assert.equal(answer.value.greeting, "Hello, Mouse");
    assert.deepEqual(answer.value.presses, ["down", "up"]);
    assert.equal(answer.value.viewport.width, 500);
    const bad = await call(({ page }: Any) => page.setViewport({ width: 99999, height: 10 }));
    assert.equal(bad.value.name, "TypeError");
  });

  await t.step(
    "goBack and goForward, and history that leads to the canary stays refused",
    async () => {
      const answer = await call(async ({ page }: Any) => {
        const base = await page.url();
        await page.goto(new URL("/app", base).href);
        await page.goto(new URL("/second", base).href);
        // null when Chromium restores the page from its back-forward cache, as in Puppeteer.
        const back = await page.goBack();
        const afterBack = [back === null || back.status() === 200, await page.url()];
        const forward = await page.goForward();
        const afterForward = [forward === null || forward.ok(), await page.title()];
        return { afterBack, afterForward };
      });
      assert.equal(answer.isFulfilled, true, JSON.stringify(answer));
      assert.deepEqual(answer.value, {
        afterBack: [true, parity.url("/app")],
        afterForward: [true, "Second"],
      });
      const refused = await call(async ({ page, canaryUrl }: Any) => {
        const base = await page.url();
        const refusals: string[] = [];
        await page.goto(canaryUrl).catch((e: Any) => refusals.push(e.message));
        await page.goto(new URL("/second", base).href);
        await page.goBack().catch((e: Any) => refusals.push(e.message));
        return refusals;
      }, { canaryUrl: `${canary.origin}/` });
      assert.equal(refused.isFulfilled, true, JSON.stringify(refused));
      assert.equal(refused.value.length, 2, JSON.stringify(refused.value));
      for (const message of refused.value) assert.match(message, /egress guard/);
      assert.equal(canary.connections, 0);
    },
  );

  await t.step("profiling in Microlink's shape, measured", async () => {
    const answer = await call(() => {
      let sum = 0;
      for (let i = 0; i < 3e7; i++) sum += i % 7;
      return sum > 0;
    });
    assert.equal(answer.value, true);
    // CPU time, not wall time: a busy function reports more than an idle one, however loaded.
    const idle = await call(() => true);
    assert.ok(
      answer.profiling.cpu > idle.profiling.cpu,
      `${answer.profiling.cpu} vs ${idle.profiling.cpu}`,
    );
    const { phases, memory, size } = answer.profiling;
    assert.deepEqual(Object.keys(phases).sort(), ["build", "install", "run", "spawn", "total"]);
    assert.equal(phases.install, 0);
    assert.ok(phases.build + phases.spawn + phases.run <= phases.total + 3, JSON.stringify(phases));
    assert.deepEqual(Object.keys(memory).sort(), ["external", "heap", "total", "used"]);
    assert.ok(memory.total > memory.heap && memory.heap > 0, JSON.stringify(memory));
    assert.ok(size > 0);
  });

  await t.step(
    "npm packages: refused up front with EINVALFUNCTION naming the package",
    async () => {
      // A function that names `require` the way Microlink's examples do.
      const plain = microlink(
        "() => { const { kebabCase } = require('lodash'); return kebabCase('Hello World') }",
        { endpoint },
      );
      const error = await plain(parity.url("/app"), { force: true }).catch((e: Any) => e);
      assert.equal(error.code, "EINVALFUNCTION", String(error));
      assert.match(error.message, /"lodash".*nothing is installed/);
    },
  );
});
