import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { decode, poolFor } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; }
  #swatch { width: 100px; height: 100px; background: #ff0000; }
  @media (prefers-color-scheme: dark) { #swatch { background: #0000ff; } }
  @media print { #swatch { background: #00ff00; } }
  #spin { width: 10px; height: 10px; animation: grow 60s linear infinite; }
  @keyframes grow { from { width: 10px; } to { width: 1000px; } }
</style></head><body>
  <div id="swatch"></div><div id="spin"></div>
  <button id="btn" onclick="this.textContent = 'clicked-' + (++window.clicks)">go</button>
  <p id="js">no-js</p>
  <div style="height: 3000px"></div><p id="bottom">bottom</p>
  <script>
    window.clicks = 0;
    document.getElementById("js").textContent = "js-ran";
    setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<i id=late>late</i>"), 200);
  </script>
</body></html>`;

const isCode = (code: string, mention: string) => (error: unknown) =>
  error instanceof ApiError && error.code === code && error.message.includes(mention);

Deno.test("visit() applies the page options before capturing", async (t) => {
  await using site = serve({
    "/": () => html(PAGE),
    "/extra.css": () =>
      new Response("#swatch { outline: 7px solid #000; }", {
        headers: { "content-type": "text/css" },
      }),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const url = `${site.origin}/`;
  const swatch = async (options: Parameters<typeof pool.visit>[1]) => {
    const result = await pool.visit(url, { ...options, screenshot: true });
    return decode(result.screenshot!.bytes).pixel(50, 50);
  };

  await t.step("colorScheme and mediaType reach the page's media queries", async () => {
    assert.deepEqual(await swatch({}), [255, 0, 0, 255]);
    assert.deepEqual(await swatch({ colorScheme: "dark" }), [0, 0, 255, 255]);
    assert.deepEqual(await swatch({ mediaType: "print" }), [0, 255, 0, 255]);
  });

  await t.step("javascript=false leaves the page's scripts unrun", async () => {
    const on = await pool.visit(url, { html: true });
    assert.match(on.html!, /<p id="js">js-ran<\/p>/);
    const off = await pool.visit(url, { html: true, javascript: false });
    assert.match(off.html!, /<p id="js">no-js<\/p>/);
  });

  await t.step("click, scroll, styles, scripts and waitForSelector run in order", async () => {
    const result = await pool.visit(url, {
      html: true,
      waitForSelector: "#late",
      click: ["#btn", "#btn"],
      scroll: "#bottom",
      styles: ["#swatch { border: 3px solid #000; }", `${site.origin}/extra.css`],
      scripts: "document.body.dataset.injected = String(window.clicks);",
      animations: false,
    });
    assert.match(result.html!, /<i id="late">late<\/i>/);
    assert.match(result.html!, /clicked-2/);
    assert.match(result.html!, /data-injected="0"/); // scripts run before the clicks
    assert.match(result.html!, /border: 3px solid #000/);
    assert.match(result.html!, /extra\.css/);
    assert.ok(site.seen.some((s) => s.path === "/extra.css"));
  });

  await t.step("bad selectors are EINVALQUERY naming the parameter", async () => {
    await assert.rejects(pool.visit(url, { click: "##nope" }), isCode("EINVALQUERY", "click"));
    await assert.rejects(
      pool.visit(url, { screenshot: { element: "[[x" } }),
      isCode("EINVALQUERY", "element"),
    );
  });

  await t.step("a selector that never appears is EBRWSRTIMEOUT naming it", async () => {
    await assert.rejects(
      pool.visit(url, { waitForSelector: "#never", timeoutMs: 1500 }),
      isCode("EBRWSRTIMEOUT", "#never"),
    );
    await pool.settled();
    await pool.settled();
    assert.equal(pool.stats().contexts, 0);
  });
});
