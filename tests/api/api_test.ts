import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

const ARTICLE = `<!doctype html><html lang="en-GB"><head>
<title>Fallback title</title>
<meta property="og:title" content="The real title">
<meta name="description" content="What the page is about.">
<meta name="author" content="Ada Lovelace">
<meta property="og:site_name" content="Example News">
<meta property="article:published_time" content="2026-01-02T03:04:05Z">
<meta property="og:image" content="/cover.png">
<link rel="canonical" href="/article">
</head><body><h1>The real title</h1><p>Body.</p></body></html>`;

// A 2x1 PNG: width and height are read from its IHDR.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwSZGBgYAEPfBf9bxTkLAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

function articleSite() {
  return serve({
    "/article": () => html(ARTICLE, { headers: { "set-cookie": "s=1", "x-target": "yes" } }),
    "/cover.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
    "/missing": () => html("<title>Gone</title>", { status: 404 }),
    "/broken": () => html("<title>Oops</title>", { status: 500 }),
    "/hop": () => new Response(null, { status: 301, headers: { location: "/article" } }),
    "/logo.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  });
}

Deno.test("GET /?url= answers the contract's success envelope", async () => {
  await using site = articleSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { status, headers, body } = await app.json(q(`${site.origin}/hop`));
  assert.equal(status, 200);
  assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(body.status, "success");
  assert.equal(body.statusCode, 200);
  assert.deepEqual(body.redirects, [{ statusCode: 301, url: `${site.origin}/hop` }]);
  assert.equal(body.headers["x-target"], "yes");
  assert.equal(body.headers["set-cookie"], undefined);
  const data = body.data;
  assert.deepEqual(Object.keys(data).sort(), [
    "audio",
    "author",
    "date",
    "description",
    "image",
    "lang",
    "logo",
    "publisher",
    "title",
    "url",
    "video",
  ]);
  assert.equal(data.title, "The real title");
  assert.equal(data.description, "What the page is about.");
  assert.equal(data.author, "Ada Lovelace");
  assert.equal(data.publisher, "Example News");
  assert.equal(data.date, "2026-01-02T03:04:05.000Z");
  assert.equal(data.lang, "en");
  assert.equal(data.url, `${site.origin}/article`);
  assert.equal(data.image.url, `${site.origin}/cover.png`);
  assert.equal(data.image.type, "png");
  assert.equal(data.image.width, 2);
  assert.equal(data.image.height, 1);
  assert.equal(data.image.size, PNG.length);
  assert.equal(data.audio, null);
  assert.equal(data.video, null);
});

Deno.test("API responses carry the contract's headers", async () => {
  await using site = articleSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const response = await app.get(q(`${site.origin}/article`, "&ping=false"));
  await response.body?.cancel();
  for (
    const name of [
      "x-response-time",
      "x-timestamp",
      "x-pricing-plan",
      "x-request-id",
      "x-cache-status",
      "x-cache-ttl",
      "x-fetch-mode",
      "x-fetch-time",
      "server-timing",
      "cache-control",
      "access-control-expose-headers",
      "x-rate-limit-limit",
      "x-rate-limit-remaining",
      "x-rate-limit-reset",
      "ratelimit",
      "ratelimit-policy",
    ]
  ) {
    assert.ok(response.headers.get(name), `missing ${name}`);
  }
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.equal(response.headers.get("access-control-allow-headers"), "*, x-api-key, authorization");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  assert.equal(response.headers.get("x-pricing-plan"), "free");
  assert.equal(response.headers.get("x-fetch-mode"), "fetch");
  assert.equal(response.headers.get("vary"), "Accept, Accept-Encoding");
  assert.ok(Math.abs(Number(response.headers.get("x-timestamp")) - Date.now()) < 60_000);
});

Deno.test("a target answering 404 or 500 is still a success carrying its statusCode", async () => {
  await using site = articleSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  for (
    const [path, code, title] of [["/missing", 404, "Gone"], ["/broken", 500, "Oops"]] as const
  ) {
    const { status, body } = await app.json(q(`${site.origin}${path}`, "&ping=false"));
    assert.equal(status, 200);
    assert.equal(body.status, "success");
    assert.equal(body.statusCode, code);
    assert.equal(body.data.title, title);
  }
});

Deno.test("ping=false returns the raw URLs unverified", async () => {
  await using site = serve({
    "/": () => html(`<meta property="og:image" content="/nowhere.jpg"><title>t</title>`),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const off = await app.json(q(`${site.origin}/`, "&ping=false"));
  assert.equal(off.body.data.image.url, `${site.origin}/nowhere.jpg`);
  assert.equal(off.body.data.image.type, "jpg");
  assert.ok(!site.paths.includes("/nowhere.jpg"));
  const on = await app.json(q(`${site.origin}/`));
  assert.equal(on.body.data.image, null, "a 404 image is dropped when verified");
});

Deno.test("embed answers with one field instead of JSON", async (t) => {
  await using site = articleSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  await t.step("a text field as text/plain", async () => {
    const response = await app.get(q(`${site.origin}/article`, "&ping=false&embed=title"));
    assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(await response.text(), "The real title");
  });
  await t.step("an image URL streamed inline", async () => {
    const response = await app.get(q(`${site.origin}/article`, "&embed=image.url"));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), PNG);
  });
  await t.step("a null field is ENOTFOUND", async () => {
    const { status, body } = await app.json(q(`${site.origin}/article`, "&embed=video.url"));
    assert.equal(status, 404);
    assert.equal(body.code, "ENOTFOUND");
  });
});

Deno.test("embed never serves SVG or HTML inline", async () => {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>`;
  await using site = serve({
    "/": () => html(`<title>t</title><meta property="og:image" content="/i.svg">`),
    "/i.svg": () => new Response(svg, { headers: { "content-type": "image/svg+xml" } }),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const response = await app.get(q(`${site.origin}/`, "&embed=image.url&ping=false"));
  assert.equal(response.headers.get("content-security-policy"), "default-src 'none'; sandbox");
  assert.equal(response.headers.get("content-disposition"), "attachment");
  assert.notEqual(response.headers.get("content-type"), "image/svg+xml");
  await response.body?.cancel();
});

Deno.test("filter keeps only the named paths; meta=false skips extraction", async () => {
  await using site = articleSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const filtered = await app.json(q(`${site.origin}/article`, "&filter=title,image.url"));
  assert.deepEqual(filtered.body.data, {
    title: "The real title",
    image: { url: `${site.origin}/cover.png` },
  });
  const skipped = await app.json(q(`${site.origin}/article`, "&meta=false"));
  assert.equal(skipped.status, 200);
  assert.deepEqual(skipped.body.data, {});
  assert.equal(skipped.headers.get("x-fetch-mode"), "skipped");
});

Deno.test("a target that is an image is described as that file", async () => {
  await using site = articleSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { body } = await app.json(q(`${site.origin}/cover.png`));
  assert.equal(body.data.image.type, "png");
  assert.equal(body.data.image.width, 2);
  assert.equal(body.data.title, null);
  assert.equal(body.data.url, `${site.origin}/cover.png`);
});

Deno.test("errors carry the contract's code, status and envelope, and never a stack", async (t) => {
  await using canary = serve({});
  await using app = await testApp(testConfig());
  const cases: [string, string, number][] = [
    ["", "EINVALURL", 400],
    ["?url=foo", "EINVALURL", 400],
    ["?url=ftp://example.invalid/", "EINVALURL", 400],
    [q("http://example.invalid/", "&screenshot=maybe"), "EINVALQUERY", 400],
    [q(`http://127.0.0.1:${canary.port}/`), "EFORBIDDENURL", 400],
    [q("http://does-not-exist.invalid/"), "EFETCH", 502],
  ];
  for (const [query, code, status] of cases) {
    await t.step(`${code} for ${query || "no query"}`, async () => {
      const response = await app.json(query);
      assert.equal(response.status, status);
      assert.equal(response.body.code, code);
      assert.equal(response.body.status, status >= 500 ? "error" : "fail");
      assert.equal(typeof response.body.message, "string");
      assert.equal(response.body.data.url, response.body.message);
      assert.ok(!JSON.stringify(response.body).includes("    at "), "no stack trace");
      assert.equal(response.headers.get("cache-control"), "no-store");
    });
  }
  assert.equal(canary.hits, 0);
});

Deno.test("ETIMEOUT when the target is slower than timeout, and the next request is unaffected", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await using site = serve({
    "/slow": async () => {
      await held;
      return html("<title>late</title>");
    },
    "/fast": () => html("<title>fast</title>"),
  });
  using _released = { [Symbol.dispose]: () => release() };
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const slow = await app.json(q(`${site.origin}/slow`, "&timeout=1s"));
  assert.equal(slow.status, 504);
  assert.equal(slow.body.code, "ETIMEOUT");
  // The target never answers: the 1 s deadline ended it, not the 10 s fetch timeout.
  assert.match(slow.body.message, /\b1000 ms\b/);
  const fast = await app.json(q(`${site.origin}/fast`, "&ping=false"));
  assert.equal(fast.body.data.title, "fast");
});

Deno.test("other methods get 405 with the envelope; OPTIONS answers CORS", async () => {
  await using app = await testApp(testConfig());
  const post = await app.get("?url=https://example.invalid", { method: "POST" });
  assert.equal(post.status, 405);
  assert.equal((await post.json()).status, "fail");
  const options = await app.get("?url=x", { method: "OPTIONS" });
  assert.equal(options.status, 204);
  assert.equal(options.headers.get("access-control-allow-headers"), "*, x-api-key, authorization");
});

Deno.test("a web app manifest's largest icon becomes the logo", async () => {
  await using site = serve({
    "/": () => html(`<title>app</title><link rel="manifest" href="/app/manifest.json">`),
    "/app/manifest.json": () =>
      Response.json({
        icons: [{ src: "small.png", sizes: "48x48" }, { src: "/big.png", sizes: "512x512" }],
      }),
    "/big.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
    "/app/small.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { body } = await app.json(q(`${site.origin}/`));
  assert.equal(body.data.logo.url, `${site.origin}/big.png`);
  assert.equal(body.data.logo.width, 2);
});
