import assert from "node:assert/strict";
import { PNG as PngEncoder } from "pngjs";
import { WORKER_THRESHOLD } from "../../lib/extract/dom/work.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

function redPng(): Uint8Array<ArrayBuffer> {
  const png = new PngEncoder({ width: 8, height: 8 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([220, 20, 20, 255], i);
  return new Uint8Array(PngEncoder.sync.write(png)) as Uint8Array<ArrayBuffer>;
}

const ARTICLE = `<!doctype html><html lang="en"><head><title>Guide</title>
<link rel="alternate" type="application/json+oembed" href="/oembed?url=x">
<meta property="og:image" content="/red.png"></head>
<body><article><h1>Guide</h1><p>First paragraph of the guide, long enough to be content.</p>
<p>Second paragraph with <a href="/more">a link</a>.</p><span class="price">1,299.50</span>
</article></body></html>`;

function site() {
  const png = redPng();
  return serve({
    "/": () => html(ARTICLE),
    "/red.png": () => new Response(png, { headers: { "content-type": "image/png" } }),
    "/oembed": (request) => {
      const maxwidth = new URL(request.url).searchParams.get("maxwidth");
      return Response.json({
        type: "rich",
        version: "1.0",
        html: `<div data-w="${maxwidth}">embed</div><script src="/widget.js"></script>`,
      });
    },
  });
}

Deno.test("custom data rules add fields; a bad rule is EINVALQUERY before any fetch", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const ok = await app.json(
    q(`${target.origin}/`, "&ping=false&data.price.selector=.price&data.price.type=number"),
  );
  assert.equal(ok.body.data.price, 1299.5);
  assert.equal(ok.body.data.title, "Guide");
  const hits = target.hits;
  const bad = await app.json(
    q(`${target.origin}/`, "&data.price.selector=.p&data.price.type=money"),
  );
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, "EINVALDATA");
  assert.match(bad.body.message, /data\.price\.type/);
  assert.equal(target.hits, hits, "nothing fetched for a bad rule");
});

Deno.test("meta and filter refuse values they cannot use", async () => {
  await using app = await testApp(testConfig());
  for (const extra of ["&meta=maybe", "&meta.title=no", "&filter="]) {
    const { status, body } = await app.json(q("http://example.invalid/", extra));
    assert.equal(status, 400, extra);
    assert.equal(body.code, "EINVALQUERY");
    assert.match(body.message, /meta|filter/);
  }
});

Deno.test("markdown=true adds data.markdown; embed=markdown answers text/markdown", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { body } = await app.json(q(`${target.origin}/`, "&ping=false&markdown"));
  assert.match(body.data.markdown, /^# Guide/m);
  assert.match(body.data.markdown, new RegExp(`\\[a link\\]\\(${target.origin}/more\\)`));
  const embedded = await app.get(q(`${target.origin}/`, "&ping=false&markdown&embed=markdown"));
  assert.equal(embedded.headers.get("content-type"), "text/markdown; charset=utf-8");
  assert.equal(await embedded.text(), body.data.markdown);
  // embed=markdown turns markdown on by itself, unless the query turns it off.
  const implied = await app.get(q(`${target.origin}/`, "&ping=false&embed=markdown"));
  assert.equal(implied.status, 200);
  assert.equal(implied.headers.get("content-type"), "text/markdown; charset=utf-8");
  assert.equal(await implied.text(), body.data.markdown);
  const off = await app.json(q(`${target.origin}/`, "&ping=false&markdown=false&embed=markdown"));
  assert.equal(off.status, 404);
  assert.equal(off.body.code, "ENOTFOUND");
});

Deno.test("iframe=true returns the oEmbed html and scripts, passing maxWidth on", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { body } = await app.json(q(`${target.origin}/`, "&ping=false&iframe&iframe.maxWidth=640"));
  assert.equal(body.data.iframe.html, `<div data-w="640">embed</div>`);
  assert.deepEqual(body.data.iframe.scripts, [{ src: `${target.origin}/widget.js` }]);
});

Deno.test("palette=true adds the image's dominant colours", async () => {
  await using target = site();
  // The decode's own budget (5 s by default) is raised to the request's deadline: a starved
  // machine may take longer than 5 s to start the decoding worker, which is not what this proves.
  const config = testConfig({ trustPorts: [target.port] });
  await using app = await testApp({ ...config, paletteTimeoutMs: config.requestTimeoutMs });
  const { body } = await app.json(q(`${target.origin}/`, "&palette"));
  assert.equal(body.data.image.palette[0], "#dc1414");
  assert.equal(body.data.image.background_color, "#dc1414");
  assert.ok(body.data.image.color);
});

Deno.test("follow-up URLs on forbidden addresses are dropped and never fetched", async () => {
  await using canary = serve({});
  await using target = serve({
    "/": () =>
      html(
        `<title>t</title><meta property="og:image" content="http://127.0.0.1:${canary.port}/x.png">
<link rel="icon" href="http://[::ffff:127.0.0.1]:${canary.port}/icon.png">
<link rel="alternate" type="application/json+oembed" href="http://127.0.0.1:${canary.port}/o">`,
      ),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { status, body } = await app.json(q(`${target.origin}/`, "&iframe"));
  assert.equal(status, 200);
  assert.equal(body.data.image, null);
  assert.equal(body.data.logo, null);
  assert.equal(body.data.iframe, null);
  assert.equal(canary.hits, 0);
});

Deno.test("staleTtl answers from the cache at once and refreshes in the background", async () => {
  let version = 1;
  await using target = serve({ "/": () => html(`<title>v${version++}</title>`) });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const query = q(`${target.origin}/`, "&ping=false&embed=title&staleTtl=0");
  const first = await app.get(query);
  assert.equal(await first.text(), "v1");
  const second = await app.get(query);
  assert.equal(second.headers.get("x-cache-status"), "STALE");
  assert.equal(await second.text(), "v1", "the stale copy answers");
  let third = "";
  for (let i = 0; i < 20 && third !== "v2"; i++) {
    await new Promise((r) => setTimeout(r, 50));
    third = await (await app.get(q(`${target.origin}/`, "&ping=false&embed=title"))).text();
  }
  assert.equal(third, "v2", "the background refresh stored the new answer");
});

Deno.test("EMAXREDIRECTS and EFATAL carry their envelopes", async () => {
  await using target = serve({
    "/loop": () => new Response(null, { status: 302, headers: { location: "/loop" } }),
    "/": () => html("<title>t</title>"),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const loop = await app.json(q(`${target.origin}/loop`));
  assert.equal(loop.status, 400);
  assert.equal(loop.body.code, "EMAXREDIRECTS");

  // An unexpected fault inside the service: EFATAL without details, and the next request works.
  const store = app.handler.services.store;
  const getCache = store.getCache;
  store.getCache = () => Promise.reject(new TypeError("disk on fire"));
  const fatal = await app.json(q(`${target.origin}/`, "&ping=false"));
  store.getCache = getCache;
  assert.equal(fatal.status, 500);
  assert.equal(fatal.body.status, "error");
  assert.equal(fatal.body.code, "EFATAL");
  assert.ok(!JSON.stringify(fatal.body).includes("disk on fire"));
  const next = await app.json(q(`${target.origin}/`, "&ping=false"));
  assert.equal(next.status, 200);
});

Deno.test("a custom rule named like a default field wins over it", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { body } = await app.json(
    q(
      `${target.origin}/`,
      "&data.image.selector=a&data.image.attr=href&data.title.selector=.price",
    ),
  );
  assert.equal(body.data.title, "1,299.50");
  assert.equal(body.data.image, `${target.origin}/more`);
});

Deno.test("markdown and custom rules of a large page run off the main thread with the same result", async () => {
  const filler = "<p>Filler paragraph that pads the page well past the worker threshold.</p>\n"
    .repeat(5000);
  const page =
    `<title>Big</title><article><h1>Big page</h1>${filler}<p class="end">The end</p></article>`;
  await using target = serve({ "/big": () => html(page) });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  assert.ok(page.length > WORKER_THRESHOLD, "the page takes the worker path");
  const { status, body } = await app.json(
    q(`${target.origin}/big`, "&ping=false&markdown&data.end.selector=.end&meta=false"),
  );
  assert.equal(status, 200);
  assert.equal(body.data.end, "The end");
  assert.match(body.data.markdown, /^# Big page/m);
  assert.match(body.data.markdown, /The end$/);
});
