import assert from "node:assert/strict";
import { imageSize } from "../../lib/media/image_size.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

const PAGE = `<!doctype html><html><head><title>Shot</title>
<meta property="og:title" content="Screenshot page"></head>
<body style="margin:0;background:#fff"><div id="box" style="width:200px;height:100px;background:#0a0">box</div></body></html>`;
const SHELL =
  `<!doctype html><html><head><script src="/app.js"></script></head><body><div id="root"></div></body></html>`;
const APP = `document.title = "Rendered app";
document.getElementById("root").innerHTML = "<h1>Rendered app</h1><p>Made by script.</p>";`;

function site() {
  return serve({
    "/": () => html(PAGE),
    "/shell": () => html(SHELL),
    "/app.js": () => new Response(APP, { headers: { "content-type": "text/javascript" } }),
  });
}

Deno.test("screenshot=true hosts the capture under /assets with its real size", async (t) => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { status, body } = await app.json(q(`${target.origin}/`, "&screenshot=true&ping=false"));
  assert.equal(status, 200, JSON.stringify(body));
  const shot = body.data.screenshot;
  assert.equal(body.data.title, "Screenshot page");
  assert.equal(shot.type, "png");
  // Microlink's default device: 1280x800 CSS pixels at 2x.
  assert.equal(shot.width, 2560);
  assert.equal(shot.height, 1600);
  assert.match(shot.url, /^http:\/\/localhost:3000\/assets\/[A-Za-z0-9_-]{22}\.png$/);

  await t.step("the asset is served with the right type and long cache headers", async () => {
    const response = await app.handler(new Request(shot.url));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.match(response.headers.get("cache-control")!, /public, max-age=31536000, immutable/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.equal(bytes.length, shot.size);
    assert.deepEqual(imageSize(bytes), { width: 2560, height: 1600 });
  });

  await t.step("element capture is the element's box; jpeg when asked", async () => {
    const { body } = await app.json(
      q(`${target.origin}/`, "&element=%23box&screenshot.type=jpeg&ping=false&meta=false"),
    );
    assert.equal(body.data.screenshot.type, "jpg");
    // The 200x100 box at the default device's 2x.
    assert.equal(body.data.screenshot.width, 400);
    assert.equal(body.data.screenshot.height, 200);
  });

  await t.step("embed=screenshot.url answers with the image itself", async () => {
    const response = await app.get(
      q(`${target.origin}/`, "&screenshot&embed=screenshot.url&meta=false"),
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual(imageSize(bytes), { width: 2560, height: 1600 });
  });

  await t.step("embed=screenshot.url turns the screenshot on by itself", async () => {
    const response = await app.get(q(`${target.origin}/`, "&embed=screenshot.url&meta=false"));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual(imageSize(bytes), { width: 2560, height: 1600 });
  });

  await t.step("pdf=true hosts a PDF", async () => {
    const { body } = await app.json(q(`${target.origin}/`, "&pdf=true&meta=false"));
    assert.equal(body.data.pdf.type, "pdf");
    const response = await app.handler(new Request(body.data.pdf.url));
    assert.equal(response.headers.get("content-type"), "application/pdf");
    assert.equal(new TextDecoder().decode((await response.arrayBuffer()).slice(0, 5)), "%PDF-");
  });
});

Deno.test("prerender: auto renders an empty app shell, false never does", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const auto = await app.json(q(`${target.origin}/shell`, "&ping=false"));
  assert.equal(auto.headers.get("x-fetch-mode"), "prerender");
  assert.equal(auto.body.data.title, "Rendered app");
  const off = await app.json(q(`${target.origin}/shell`, "&ping=false&prerender=false"));
  assert.equal(off.headers.get("x-fetch-mode"), "fetch");
  assert.equal(off.body.data.title, null);
  const forced = await app.json(q(`${target.origin}/`, "&ping=false&prerender=true"));
  assert.equal(forced.headers.get("x-fetch-mode"), "prerender");
  assert.equal(forced.body.data.title, "Screenshot page");
  assert.equal(forced.body.statusCode, 200);
});

Deno.test("a credentialed screenshot gets a private asset", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { headers, body } = await app.json(
    q(`${target.origin}/`, "&screenshot&meta=false&headers.authorization=Bearer%20x"),
  );
  assert.equal(headers.get("cache-control"), "private, no-store");
  const response = await app.handler(new Request(body.data.screenshot.url));
  assert.match(response.headers.get("cache-control")!, /^private/);
  await response.body?.cancel();
});

Deno.test("a screenshot of a forbidden address is EFORBIDDENURL and the canary stays silent", async () => {
  await using canary = serve({ "/": () => html("<title>secret</title>") });
  await using app = await testApp(testConfig());
  const { status, body } = await app.json(q(`${canary.origin}/`, "&screenshot&meta=false"));
  assert.equal(status, 400);
  assert.equal(body.code, "EFORBIDDENURL");
  assert.equal(canary.hits, 0);
});

Deno.test("overlay.background with a bad value is Microlink's EINVALOVERLAYBG", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const { status, body } = await app.json(
    q(`${target.origin}/`, "&screenshot&overlay.background=url(javascript:alert(1))&meta=false"),
  );
  assert.equal(status, 400);
  assert.equal(body.code, "EINVALOVERLAYBG");
  assert.match(body.message, /overlay\.background/);
});

Deno.test("browser-only parameters are checked before any traffic leaves", async () => {
  await using target = site();
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const refused = {
    "&overlay.background=expression(alert(1))": "EINVALOVERLAYBG",
    "&screenshot&device=Nokia%203310": "EINVALQUERY",
  };
  for (const [extra, code] of Object.entries(refused)) {
    const { status, body } = await app.json(q(`${target.origin}/`, extra));
    assert.equal(status, 400);
    assert.equal(body.code, code);
  }
  assert.equal(target.hits, 0);
});

Deno.test("headers.* never reach another origin, through the fetcher or the browser", async () => {
  const seen: (string | null)[] = [];
  await using other = serve({
    "/landing": (request) => {
      seen.push(request.headers.get("authorization"));
      return html("<title>Other origin</title>");
    },
  });
  await using target = serve({
    "/go": () =>
      new Response(null, { status: 302, headers: { location: `${other.origin}/landing` } }),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port, other.port] }));
  const { status, body } = await app.json(
    q(`${target.origin}/go`, "&screenshot&ping=false&headers.authorization=Bearer%20secret"),
  );
  assert.equal(status, 200);
  assert.equal(body.data.title, "Other origin");
  assert.ok(body.data.screenshot.url);
  assert.ok(seen.length >= 2, `fetcher and browser both loaded the page (${seen.length})`);
  assert.deepEqual(seen.filter((h) => h !== null), []);
});

Deno.test("userinfo in the target URL signs the browser's visit in too", async () => {
  await using target = serve({
    "/private": (request) =>
      request.headers.get("authorization") === `Basic ${btoa("ada:s3cret")}`
        ? html("<title>Welcome</title>")
        : new Response("login", { status: 401 }),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const url = `http://ada:s3cret@127.0.0.1:${target.port}/private`;
  const { status, headers, body } = await app.json(q(url, "&prerender=true&ping=false"));
  assert.equal(status, 200);
  assert.equal(body.statusCode, 200);
  assert.equal(body.data.title, "Welcome");
  assert.equal(headers.get("cache-control"), "private, no-store");
});
