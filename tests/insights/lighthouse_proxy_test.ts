/**
 * `insights.lighthouse` with `proxy=`: Lighthouse's own Chromium goes out through the request's
 * proxy (a real squid on loopback), as the pooled browser's visits do; the report is whole and
 * the run leaves no Chromium behind.
 */
import assert from "node:assert/strict";
import { createKey } from "../../lib/plans/mod.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { startSquid } from "../fetch/_proxies.ts";
import { descendants } from "../_processes.ts";

Deno.test("insights.lighthouse with proxy= loads the page through that proxy", async () => {
  // Only a browser asks for the stylesheet, and only it comes from this second server.
  await using styles = serve({
    "/style.css": () => new Response("p{color:#222}", { headers: { "content-type": "text/css" } }),
  });
  await using target = serve({
    "/": () =>
      html(`<!doctype html><html lang="en"><head><title>Audited</title>
<meta name="viewport" content="width=device-width"><meta name="description" content="A page.">
<link rel="stylesheet" href="${styles.origin}/style.css"></head><body><p>audited</p></body></html>`),
  });
  await using squid = await startSquid();
  await using app = await testApp(
    testConfig({
      trustPorts: [target.port, styles.port, squid.port],
      env: { PRO_HOSTS: "pro.test" },
    }),
  );
  const { key } = await createKey(app.handler.services.store, { name: "ci" });
  const { status, body } = await app.json(
    q(
      `${target.origin}/`,
      `&insights.lighthouse.onlyCategories.0=seo&proxy=${encodeURIComponent(squid.url)}` +
        "&ping=false&prerender=false&timeout=28000",
    ),
    { headers: { host: "pro.test", "x-api-key": key } },
  );
  assert.equal(status, 200, JSON.stringify(body).slice(0, 500));
  const report = body.data.insights.lighthouse;
  assert.equal(report.finalDisplayedUrl, `${target.origin}/`);
  assert.equal(typeof report.categories.seo.score, "number");
  assert.equal(styles.hits, 1, "the browser loaded the stylesheet");
  let log = "";
  for (let i = 0; i < 100 && !log.includes(`CONNECT 127.0.0.1:${styles.port}`); i++) {
    await new Promise((r) => setTimeout(r, 50));
    log = await squid.log();
  }
  assert.match(log, new RegExp(`CONNECT 127\\.0\\.0\\.1:${styles.port}`), "through the proxy");
  // The run's Chromium is gone: only the pool's browser (if any) is below this process.
  const pool = app.handler.services.browser.stats().pid;
  const chromiums = (await descendants(Deno.pid)).filter((pid) => {
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
      return cmdline.includes("--remote-debugging-pipe") && pid !== pool &&
        !cmdline.includes("--type=");
    } catch {
      return false;
    }
  });
  assert.deepEqual(chromiums, []);
});
