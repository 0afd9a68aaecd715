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
