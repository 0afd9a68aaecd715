/**
 * `embed=iframe.html` is served as a page, as Microlink serves it, with the provider's scripts
 * running (they are the feature) but in an opaque origin: in real Chromium, a script in the
 * embedded html cannot read linkpeek's origin (its domain, its cookies, its other pages).
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import { launchLoopbackChromium, requireChromium } from "../browser/_helpers.ts";
import { html, q, serve, testConfig } from "../_fixtures.ts";
import { serveLinkpeek } from "../ops/_listen.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

// Runs inside the embed: reports what linkpeek's origin would give a script there.
const PROBE = `<script>
(async () => {
  const seen = { origin: self.origin, domain: document.domain };
  try { seen.cookie = document.cookie; } catch (error) { seen.cookie = error.name; }
  try { seen.storage = typeof localStorage.length; } catch (error) { seen.storage = error.name; }
  seen.errorsPage = await fetch("/errors").then((r) => r.text()).then(() => "read", (e) => e.name);
  document.title = JSON.stringify(seen);
})();
</script>`;

function provider() {
  return serve({
    "/page": (_request, site) =>
      html(`<title>Embedded</title>
<link rel="alternate" type="application/json+oembed" href="${site.origin}/oembed">`),
    "/oembed": (_request, site) =>
      Response.json({
        type: "rich",
        version: "1.0",
        html: `<div id="widget">Provider widget</div>${PROBE}` +
          `<script async src="${site.origin}/widget.js" charset="utf-8"></script>`,
      }),
    "/widget.js": () =>
      new Response(`document.getElementById("widget").dataset.ready = "yes";`, {
        headers: { "content-type": "text/javascript" },
      }),
  });
}

Deno.test("embed=iframe.html: a sandboxed page whose scripts run, never as linkpeek", async (t) => {
  requireChromium();
  await using site = provider();
  await using app = await serveLinkpeek(testConfig({ trustPorts: [site.port] }));
  const embedUrl = `${app.origin}/${q(`${site.origin}/page`, "&embed=iframe.html")}`;

  await t.step("served as HTML under a scripts-only sandbox, not sniffable", async () => {
    const response = await fetch(embedUrl);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    const csp = response.headers.get("content-security-policy")!;
    assert.match(csp, /^sandbox allow-scripts/);
    assert.doesNotMatch(csp, /allow-same-origin/);
    const page = await response.text();
    assert.ok(page.includes(`<div id="widget">Provider widget</div>`), page);
    // the provider's script, split out of data.iframe.html, is put back for the page
    assert.ok(
      page.includes(`<script src="${site.origin}/widget.js" async charset="utf-8"></script>`),
      page,
    );
  });

  await t.step("mql.buffer and mql.stream read the same page", async () => {
    const options = { endpoint: `${app.origin}/`, embed: "iframe.html" };
    const buffered: Any = await mql.buffer(`${site.origin}/page`, options);
    assert.equal(buffered.headers.get("content-type"), "text/html; charset=utf-8");
    const text = new TextDecoder().decode(buffered.body);
    assert.ok(text.includes("Provider widget"));
    const apiUrl = (mql as Any).getApiUrl(`${site.origin}/page`, options)[0];
    const streamed: ReadableStream<Uint8Array> = await (mql as Any).stream(apiUrl);
    assert.equal(await new Response(streamed).text(), text);
  });

  await t.step("in Chromium its scripts run in an opaque origin", async () => {
    const browser = await launchLoopbackChromium();
    try {
      const tab = await browser.newPage();
      // A cookie of linkpeek's origin that a script running as linkpeek could read.
      await browser.setCookie({ name: "session", value: "secret", domain: "127.0.0.1", path: "/" });
      await tab.goto(embedUrl);
      await tab.waitForFunction(() => document.title.startsWith("{"), { timeout: 30_000 });
      const seen = JSON.parse(await tab.title());
      assert.deepEqual(seen, {
        origin: "null",
        domain: "",
        cookie: "SecurityError",
        storage: "SecurityError",
        // linkpeek's /errors page is same-origin for linkpeek, cross-origin for the sandbox
        errorsPage: "TypeError",
      });
      // The provider's own script ran too: the sandbox keeps the feature working.
      await tab.waitForFunction(
        () => document.getElementById("widget")?.dataset.ready === "yes",
        { timeout: 30_000 },
      );
    } finally {
      await browser.close();
    }
  });
});
