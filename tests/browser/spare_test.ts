import assert from "node:assert/strict";
import { launchChromium, removeDir } from "../../lib/browser/launch.ts";
import { SpareContexts } from "../../lib/browser/spare.ts";
import { CHROMIUM, requireChromium } from "./_helpers.ts";

Deno.test("the spare is opened once a visit is over, not beside it, and the next visit takes it", async () => {
  requireChromium();
  // No page here navigates: the proxy port is never dialled.
  const { browser, userDataDir } = await launchChromium({ executablePath: CHROMIUM, proxyPort: 9 });
  const spares = new SpareContexts(browser);
  try {
    const contexts = () => browser.browserContexts().length; // the default one included
    const first = await spares.take();
    await spares.settled();
    assert.equal(contexts(), 2, "no spare opens while the first visit runs");
    assert.equal(spares.holds(first.context), false);

    await first.context.close();
    spares.refill();
    await spares.settled();
    assert.equal(contexts(), 2, "the visit's context is gone and a spare is ready");
    const spare = browser.browserContexts().find((c) => c !== browser.defaultBrowserContext())!;
    assert.equal(spares.holds(spare), true);
    spares.refill();
    await spares.settled();
    assert.equal(contexts(), 2, "one spare at most");

    const second = await spares.take();
    assert.equal(second.context, spare, "the next visit gets the spare");
    assert.notEqual(second.consent, null, "with adblock's consent bundle installed");
    await spares.settled();
    assert.equal(contexts(), 2, "and no new spare opens while it runs");
    await second.context.close();
  } finally {
    await spares.close();
    await browser.close();
    await removeDir(userDataDir);
  }
});

Deno.test("a tab Chromium refuses is asked for once more, and the visit gets its page", async () => {
  requireChromium();
  const { browser, userDataDir } = await launchChromium({ executablePath: CHROMIUM, proxyPort: 9 });
  // The first context handed out is closed before its tab opens: Chromium refuses that tab for
  // real (a protocol error), as it refused "a new tab" under load in CI.
  let refusals = 1;
  const refusing = new Proxy(browser, {
    get(target, key) {
      if (key !== "createBrowserContext") return Reflect.get(target, key, target);
      return async () => {
        const context = await target.createBrowserContext();
        if (refusals-- > 0) await context.close();
        return context;
      };
    },
  });
  const spares = new SpareContexts(refusing);
  try {
    const lease = await spares.take();
    assert.equal(await lease.page.evaluate("1 + 1"), 2);
    assert.equal(refusals, -1, "the tab was refused once, then opened");
    assert.equal(browser.browserContexts().length, 2, "the refused context is not left open");
    await lease.context.close();
  } finally {
    await spares.close();
    await browser.close();
    await removeDir(userDataDir);
  }
});
