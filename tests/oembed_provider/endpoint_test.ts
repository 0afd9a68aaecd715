/**
 * GET /oembed through the whole handler: each type, sizes, formats, errors and plans, hostile
 * pages and hostile providers. The target site and the providers have public names, mapped
 * by the injected resolver and connector onto loopback servers; nothing leaves the machine.
 */
import assert from "node:assert/strict";
import { parseDocument } from "htmlparser2";
import type { Element } from "domhandler";
import { PNG } from "pngjs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { openApiDocument } from "../../lib/openapi/mod.ts";
import { createKey } from "../../lib/plans/mod.ts";
import { CARD_WIDTH, HERO_RATIO, THUMBNAIL } from "../../lib/oembed_endpoint/card.ts";
import { DEFAULT_FRAME } from "../../lib/oembed_endpoint/embed_html.ts";
import { DEFAULT_FIELDS } from "../../lib/util/payload_types.ts";
import {
  html,
  loopbackConnector,
  PUBLIC_IP,
  PUBLIC_IP_2,
  serve,
  tableResolver,
  type TestApp,
  testApp,
  testConfig,
} from "../_fixtures.ts";

function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const image = new PNG({ width, height });
  image.data.fill(180);
  return new Uint8Array(PNG.sync.write(image)) as Uint8Array<ArrayBuffer>;
}

const SITE = "http://site.example";
const image = (bytes: Uint8Array<ArrayBuffer>) => () =>
  new Response(bytes, { headers: { "content-type": "image/png" } });

/** A page naming an oEmbed provider (or none) and a few metadata fields. */
function page(
  options: { title?: string; provider?: string; image?: string; extra?: string; type?: string },
) {
  return html(`<!doctype html><html lang="en"><head>
${options.title === undefined ? "" : `<title>${options.title}</title>`}
<meta property="og:site_name" content="Example Journal">
<meta name="description" content="What the page is about, in a sentence or two.">
${options.image ? `<meta property="og:image" content="${options.image}">` : ""}
${
    options.provider
      ? `<link rel="alternate" type="${
        options.type ?? "application/json+oembed"
      }" href="${options.provider}">`
      : ""
  }
${options.extra ?? ""}
</head><body><p>Body.</p></body></html>`);
}

const HOSTILE_TITLE = `<script>alert("x")</script> "double" 'single' & עברית مرحبا ${
  "W".repeat(10_240)
}`;
const escapeAttr = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function site() {
  const hero = png(1200, 630);
  const square = png(300, 300);
  const photo = png(800, 600);
  const provider = (path: string) =>
    `http://providers.example/${path}?url=${encodeURIComponent(SITE)}&amp;format=json`;
  return serve({
    "/article": () => page({ title: "Calm interfaces", image: "/hero.png" }),
    "/square": () => page({ title: "Square", image: "/square.png" }),
    "/hero.png": image(hero),
    "/square.png": image(square),
    "/photo.png": image(photo),
    "/watch": () => page({ title: "A video", provider: provider("video") }),
    // Discovery reads the type in any case, as lib/extract does.
    "/post": () =>
      page({ title: "A post", provider: provider("rich"), type: "Application/JSON+oEmbed" }),
    "/inward": (request) =>
      page({
        title: "Names an inside address",
        provider: new URL(request.url).searchParams.get("p")!,
      }),
    "/gallery": () => page({ title: "A gallery", provider: provider("photo") }),
    "/evil": () => page({ title: "Evil embed", provider: provider("evil") }),
    "/linkonly": () => page({ title: "Link only", provider: provider("link") }),
    "/failing": () => page({ title: "Failing provider", provider: provider("fail") }),
    "/self": () =>
      page({
        title: "Names linkpeek",
        provider: "http://localhost:3000/oembed?url=x&amp;format=json",
      }),
    "/hostile": () =>
      page({
        title: "fallback",
        extra: `<meta property="og:title" content="${escapeAttr(HOSTILE_TITLE)}">`,
      }),
    "/gone": () => html("<title>Gone</title>", { status: 404 }),
    "/blank": () => html("<html><head></head><body></body></html>"),
  });
}

const VIDEO_FRAME = `<div class="wrap" onclick="steal()"><iframe width="640" height="360" ` +
  `src="https://www.video.example/embed/abc?rel=0&amp;x=1" title="The video" ` +
  `allow="accelerometer; autoplay; camera; encrypted-media; picture-in-picture" ` +
  `allowfullscreen onload="steal()"></iframe></div>`;
const RICH_POST = `<blockquote class="post"><p>Hello &amp; "welcome"</p></blockquote>\n` +
  `<script async src="/widgets.js" charset="utf-8"></script>`;

/** The providers: they ignore maxwidth on purpose, so that linkpeek's own sizing shows. */
function providers() {
  return serve((request) => {
    const path = new URL(request.url).pathname;
    const answers: Record<string, unknown> = {
      "/video": {
        type: "video",
        version: "1.0",
        html: VIDEO_FRAME,
        width: 640,
        height: 360,
        author_name: "Video Author",
        author_url: "https://www.video.example/@author",
        provider_name: "VideoSite",
      },
      "/rich": { type: "rich", version: "1.0", html: RICH_POST, width: 550, height: null },
      "/photo": {
        type: "photo",
        version: "1.0",
        url: "https://photos.example/p/1.jpg",
        width: 1024,
        height: 768,
      },
      "/evil": {
        type: "video",
        version: "1.0",
        html: `<iframe src="javascript:alert(1)"></iframe><script>alert(1)</script>` +
          `<iframe src="https://player.example/e/1" width="100%" height="200" ` +
          `allow="camera; autoplay" referrerpolicy="unsafe-url" onload="x()"></iframe>`,
        width: "wide",
      },
      "/link": { type: "link", version: "1.0", title: "just a link" },
    };
    const answer = answers[path];
    return answer ? Response.json(answer) : new Response("down", { status: 500 });
  });
}

/** The app, the site and the providers; `trustPorts` are loopback ports the guard lets through. */
async function setup(env: Record<string, string> = {}, trustPorts: number[] = []) {
  const target = site();
  const provider = providers();
  const config = testConfig({ env, trustPorts });
  const resolver = tableResolver({
    "site.example": [PUBLIC_IP],
    "providers.example": [PUBLIC_IP_2],
  });
  const connector = loopbackConnector({
    [PUBLIC_IP]: target.port,
    [PUBLIC_IP_2]: provider.port,
    ...Object.fromEntries(trustPorts.map((port) => [`127.0.0.1:${port}`, port])),
  });
  const app = await testApp(config, { resolver, connector });
  return {
    app,
    provider,
    resolver,
    oembed: (path: string, extra = "", init?: RequestInit) =>
      app.json(`oembed?url=${encodeURIComponent(SITE + path)}${extra}`, init),
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await target[Symbol.asyncDispose]();
      await provider[Symbol.asyncDispose]();
    },
  };
}

/** The card's markup as a browser would parse it: every element, every attribute. */
function elements(markup: string): Element[] {
  const all: Element[] = [];
  const walk = (nodes: readonly unknown[]) => {
    for (const node of nodes as Element[]) {
      if (node.type === "tag" || node.type === "script" || node.type === "style") {
        all.push(node);
        walk(node.children);
      }
    }
  };
  walk(parseDocument(markup).children);
  return all;
}

const CARD_ATTRIBUTES = new Set([
  "href",
  "target",
  "rel",
  "title",
  "dir",
  "lang",
  "style",
  "src",
  "alt",
  "width",
  "height",
  "loading",
  "decoding",
  "referrerpolicy",
]);

/** The card is inert markup: a, img and span only, known attributes, http(s) URLs only. */
function assertInertCard(markup: string): Element[] {
  const found = elements(markup);
  for (const element of found) {
    assert.ok(["a", "img", "span"].includes(element.name), element.name);
    for (const [name, value] of Object.entries(element.attribs)) {
      assert.ok(CARD_ATTRIBUTES.has(name), `attribute ${name}`);
      if (name === "href" || name === "src") assert.match(value, /^https?:\/\//);
    }
  }
  assert.equal(found[0]!.name, "a");
  return found;
}

const textOf = (element: Element): string =>
  element.children.map((c) => ("data" in c ? c.data : textOf(c as Element))).join("");

Deno.test("GET /oembed answers a rich link-preview card for an article", async (t) => {
  await using env = await setup();

  await t.step("the oEmbed 1.0 fields and the API's headers", async () => {
    const { status, headers, body } = await env.oembed("/article");
    assert.equal(status, 200);
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(body.version, "1.0");
    assert.equal(body.type, "rich");
    assert.equal(body.title, "Calm interfaces");
    assert.equal(body.provider_name, "Example Journal");
    assert.equal(body.provider_url, `${SITE}/`);
    assert.equal(body.cache_age, 86400);
    assert.equal(body.thumbnail_url, `${SITE}/hero.png`);
    assert.deepEqual([body.thumbnail_width, body.thumbnail_height], [1200, 630]);
    assert.equal(body.width, CARD_WIDTH);
    assert.equal(body.height, Math.round(CARD_WIDTH * HERO_RATIO) + 156);
    const card = assertInertCard(body.html);
    assert.equal(card[0]!.attribs.href, `${SITE}/article`);
    assert.ok(card.some((e) => e.name === "img" && e.attribs.src === `${SITE}/hero.png`));
    assert.match(body.html, /What the page is about/);
    assert.equal(headers.get("x-cache-status"), "MISS");
    assert.equal(headers.get("access-control-allow-origin"), "*");
    assert.equal(headers.get("x-pricing-plan"), "free");
    assert.equal(headers.get("x-rate-limit-remaining"), "49");
    assert.match(headers.get("x-request-id")!, /^[0-9a-f-]{36}$/);
    assert.equal(headers.get("x-fetch-mode"), "fetch");
  });

  await t.step("a repeat is a cache hit; cache_age counts down with the entry", async () => {
    const { headers, body } = await env.oembed("/article");
    assert.equal(headers.get("x-cache-status"), "HIT");
    assert.ok(body.cache_age <= 86400 && body.cache_age >= 86390, String(body.cache_age));
    assert.equal(body.cache_age, Math.floor(Number(headers.get("x-cache-ttl")) / 1000));
  });

  await t.step("maxwidth narrows the card and scales the thumbnail", async () => {
    const { body } = await env.oembed("/article", "&maxwidth=400");
    assert.equal(body.width, 400);
    assert.deepEqual([body.thumbnail_width, body.thumbnail_height], [400, 210]);
    assert.match(body.html, /max-width:400px/);
    const hero = elements(body.html).find((e) => e.name === "img")!;
    assert.deepEqual([hero.attribs.width, hero.attribs.height], ["400", "210"]);
  });

  await t.step("a maxheight too short for the hero puts the image beside the text", async () => {
    const { body } = await env.oembed("/article", "&maxwidth=400&maxheight=200");
    assert.ok(body.height <= 200);
    assert.match(body.html, /max-height:200px/);
    const thumb = elements(body.html).find((e) => e.name === "img")!;
    assert.deepEqual([thumb.attribs.width, thumb.attribs.height], [`${THUMBNAIL}`, `${THUMBNAIL}`]);
    // The thumbnail fields respect both limits, proportions kept.
    assert.deepEqual([body.thumbnail_width, body.thumbnail_height], [381, 200]);
  });

  await t.step("a square image is a thumbnail beside the text", async () => {
    const { body } = await env.oembed("/square");
    const thumb = elements(body.html).find((e) => e.name === "img")!;
    assert.equal(thumb.attribs.src, `${SITE}/square.png`);
    assert.equal(thumb.attribs.width, `${THUMBNAIL}`);
  });
});

Deno.test("GET /oembed passes on the target's own video provider, sized", async () => {
  await using env = await setup();
  const { status, body } = await env.oembed("/watch", "&maxwidth=320&maxheight=400");
  assert.equal(status, 200);
  // The provider was asked for the size, through the guarded fetcher.
  assert.match(env.provider.last!.target, /^\/video\?url=.*&maxwidth=320&maxheight=400$/);
  assert.equal(body.type, "video");
  assert.deepEqual([body.width, body.height], [320, 180]);
  assert.equal(
    body.html,
    '<iframe src="https://www.video.example/embed/abc?rel=0&amp;x=1" width="320" height="180" ' +
      'title="The video" allow="accelerometer; autoplay; encrypted-media; picture-in-picture" ' +
      'allowfullscreen loading="lazy" style="border:0;max-width:100%"></iframe>',
  );
  assert.equal(body.title, "A video");
  assert.equal(body.author_name, "Video Author");
  assert.equal(body.author_url, "https://www.video.example/@author");
  assert.equal(body.provider_name, "Example Journal");
});

Deno.test("GET /oembed runs a provider's non-iframe embed in a sandboxed frame", async () => {
  await using env = await setup();
  const { body } = await env.oembed("/post", "&maxheight=300");
  assert.equal(body.type, "rich");
  assert.deepEqual([body.width, body.height], [550, 300]);
  const [frame, ...rest] = elements(body.html);
  assert.equal(rest.length, 0, "one element: the frame; the provider's markup is inside it");
  assert.equal(frame!.name, "iframe");
  assert.equal(frame!.attribs.sandbox, "allow-scripts allow-popups allow-popups-to-escape-sandbox");
  const inside = frame!.attribs.srcdoc!;
  assert.ok(inside.includes(RICH_POST), "the provider's markup, unchanged, inside the frame");
  assert.match(inside, /<base href="http:\/\/providers\.example\/rich\?url=/);
  // Without a maxheight the frame takes the default height.
  const tall = await env.oembed("/post");
  assert.deepEqual([tall.body.width, tall.body.height], [550, DEFAULT_FRAME.height]);
});

Deno.test("GET /oembed keeps only a provider's http(s) iframe and checked attributes", async () => {
  await using env = await setup();
  const { body } = await env.oembed("/evil");
  assert.equal(body.type, "video");
  const found = elements(body.html);
  assert.deepEqual(found.map((e) => e.name), ["iframe"]);
  assert.deepEqual(found[0]!.attribs, {
    src: "https://player.example/e/1",
    width: String(DEFAULT_FRAME.width),
    height: "200",
    title: "Evil embed",
    allow: "autoplay",
    loading: "lazy",
    style: "border:0;max-width:100%",
  });
});

Deno.test("GET /oembed answers photo for an image target and for a photo provider", async () => {
  await using env = await setup();
  const target = await env.oembed("/photo.png", "&maxwidth=400");
  assert.equal(target.body.type, "photo");
  assert.equal(target.body.url, `${SITE}/photo.png`);
  assert.deepEqual([target.body.width, target.body.height], [400, 300]);
  assert.equal(target.body.html, undefined);
  assert.equal(target.body.thumbnail_url, undefined);
  assert.equal(target.body.provider_url, `${SITE}/`);
  assert.equal(target.body.provider_name, "site.example", "no publisher: the host names it");

  const provided = await env.oembed("/gallery", "&maxwidth=512");
  assert.equal(provided.body.type, "photo");
  assert.equal(provided.body.url, "https://photos.example/p/1.jpg");
  assert.deepEqual([provided.body.width, provided.body.height], [512, 384]);
  assert.equal(provided.body.title, "A gallery");
});

Deno.test("GET /oembed type=link answers a link, even where an embed exists", async () => {
  await using env = await setup();
  const image = await env.oembed("/photo.png", "&type=link&maxwidth=200");
  assert.equal(image.body.type, "link");
  assert.deepEqual(
    [image.body.thumbnail_url, image.body.thumbnail_width, image.body.thumbnail_height],
    [`${SITE}/photo.png`, 200, 150],
  );
  for (const path of ["/article", "/watch"]) {
    const { status, body } = await env.oembed(path, "&type=link");
    assert.equal(status, 200);
    assert.equal(body.type, "link");
    assert.equal(body.version, "1.0");
    assert.equal(body.html, undefined);
    assert.equal(body.width, undefined);
    assert.equal(body.provider_url, `${SITE}/`);
    assert.ok(body.title);
  }
});

Deno.test("GET /oembed falls back to the card when the provider cannot help", async () => {
  await using env = await setup();
  for (const path of ["/linkonly", "/failing"]) {
    const { body } = await env.oembed(path);
    assert.equal(body.type, "rich", path);
    assertInertCard(body.html);
  }
  // A page naming linkpeek's own /oembed as its provider is not asked back.
  const { body } = await env.oembed("/self");
  assert.equal(body.type, "rich");
  assert.equal(env.resolver.calls["localhost"], undefined);
});

Deno.test("GET /oembed never reaches a provider on a forbidden address", async () => {
  await using canary = serve(() => Response.json({ type: "rich", html: "<p>inside</p>" }));
  const path = `/inward?p=${encodeURIComponent(`${canary.origin}/oembed`)}`;
  {
    await using env = await setup();
    const { body } = await env.oembed(path);
    assert.equal(body.type, "rich");
    assertInertCard(body.html);
    assert.equal(canary.hits, 0, "the guard refused the page's provider");
  }
  // The same page, the address trusted: the provider is asked, so the refusal was the guard's.
  await using trusting = await setup({}, [canary.port]);
  const { body } = await trusting.oembed(path);
  assert.equal(canary.hits, 1);
  assert.match(body.html, /^<iframe sandbox=/);
});

Deno.test("GET /oembed format=xml answers the spec's XML with the same fields", async () => {
  await using env = await setup();
  const json = await env.oembed("/article", "&maxwidth=480");
  const response = await env.app.get(
    `oembed?url=${encodeURIComponent(`${SITE}/article`)}&maxwidth=480&format=xml`,
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/xml; charset=utf-8");
  assert.equal(response.headers.get("x-cache-status"), "HIT", "one cache entry for both formats");
  const text = await response.text();
  assert.match(text, /^<\?xml version="1\.0" encoding="utf-8" standalone="yes"\?>\n<oembed>/);
  const root = parseDocument(text, { xmlMode: true }).children
    .find((n) => (n as Element).name === "oembed") as Element;
  const fields = Object.fromEntries(
    root.children.filter((n) => n.type === "tag").map((n) => [
      (n as Element).name,
      textOf(n as Element),
    ]),
  );
  // cache_age counts down between the two answers; every other field is the same.
  assert.match(fields.cache_age!, /^\d+$/);
  const { cache_age: _, ...rest } = fields;
  const { cache_age: __, ...expected } = json.body;
  assert.deepEqual(
    rest,
    Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, String(v)])),
  );
});

Deno.test("GET /oembed errors: oEmbed's statuses, the API's codes and JSON envelope", async (t) => {
  await using env = await setup();

  await t.step("an unknown format is 501, after the plan has counted it", async () => {
    const { status, headers, body } = await env.oembed("/article", "&format=yaml");
    assert.equal(status, 501);
    assert.equal(body.status, "error");
    assert.equal(body.code, "EINVALQUERY");
    assert.match(body.message, /`format` must be json or xml/);
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(headers.get("x-rate-limit-remaining"), "49");
  });

  await t.step("a target with an error status or nothing to show is 404 ENOTFOUND", async () => {
    for (const path of ["/gone", "/blank"]) {
      const { status, headers, body } = await env.oembed(path, "&format=xml");
      assert.equal(status, 404, path);
      assert.equal(body.code, "ENOTFOUND");
      assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
      assert.ok(headers.get("x-request-id"));
    }
  });

  await t.step("bad sizes, types and URLs name what is wrong", async () => {
    for (
      const [extra, pattern] of [
        ["&maxwidth=wide", /`maxwidth`/],
        ["&maxheight=0", /`maxheight`/],
        ["&type=video", /`type`/],
      ] as const
    ) {
      const { status, body } = await env.oembed("/article", extra);
      assert.equal(status, 400, extra);
      assert.equal(body.code, "EINVALQUERY");
      assert.match(body.message, pattern);
    }
    const missing = await env.app.json("oembed");
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, "EINVALURL");
  });

  await t.step("a forbidden target is the API's EFORBIDDENURL", async () => {
    const { status, body } = await env.app.json("oembed?url=http%3A%2F%2F127.0.0.1%3A9%2F");
    assert.equal(status, 400);
    assert.equal(body.code, "EFORBIDDENURL");
  });

  await t.step("CORS: open, preflight included", async () => {
    const preflight = await env.app.get("oembed", { method: "OPTIONS" });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
  });
});

Deno.test("GET /oembed plan errors: EPRO 403, EAUTH 401, ERATE 429", async () => {
  await using env = await setup({ PRO_HOSTS: "pro.test", FREE_DAILY_LIMIT: "2" });
  const { key } = await createKey(env.app.handler.services.store, { name: "ci" });

  const onFree = await env.oembed("/article", "", { headers: { "x-api-key": key } });
  assert.equal(onFree.status, 403);
  assert.equal(onFree.body.code, "EPRO");
  assert.equal(onFree.body.status, "fail");

  const noKey = await env.oembed("/article", "", { headers: { host: "pro.test" } });
  assert.equal(noKey.status, 401);
  assert.equal(noKey.body.code, "EAUTH");
  const pro = await env.oembed("/article", "", { headers: { host: "pro.test", "x-api-key": key } });
  assert.equal(pro.status, 200);
  assert.equal(pro.headers.get("x-pricing-plan"), "pro");

  // The EPRO above counted once; one more free request, then the limit.
  assert.equal((await env.oembed("/article")).status, 200);
  const limited = await env.oembed("/article", "&format=yaml");
  assert.equal(limited.status, 429, "the plan's verdict comes before a bad format");
  assert.equal(limited.body.code, "ERATE");
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
});

Deno.test("GET /oembed escapes hostile titles: markup, quotes, RTL, 10 KB", async () => {
  await using env = await setup();
  const { status, body } = await env.oembed("/hostile", "&maxwidth=320");
  assert.equal(status, 200);
  assert.ok(!body.html.includes("<script"), "markup arrives as text");
  const card = assertInertCard(body.html);
  // The title: the card's first span holding text only (it takes the card's direction).
  const title = card.find((e) =>
    e.name === "span" && !e.attribs.dir && e.children.every((c) => c.type === "text")
  )!;
  const shown = textOf(title);
  // The extractor curls quotes; markup, ampersand and both scripts arrive as text.
  assert.ok(shown.startsWith("<script>alert(“x”)</script> “double” ‘single’ & עברית مرحبا W"));
  assert.ok(shown.endsWith("…"));
  assert.equal([...new Intl.Segmenter().segment(shown)].length, 201, "200 characters and …");
  assert.equal(card[0]!.attribs.title, shown);
  assert.equal(card[0]!.attribs.dir, "auto");
  // The JSON field is plain text, clipped too.
  assert.ok(body.title.startsWith("<script>alert(“x”)</script>"));
  assert.equal([...new Intl.Segmenter().segment(body.title)].length, 301);
  assert.ok(body.html.length < 8_000, `${body.html.length} characters`);
});

Deno.test("GET /oembed with credentials is private: no cache_age, not for shared caches", async () => {
  await using env = await setup();
  const { status, headers, body } = await env.oembed("/article", "&headers.cookie=session%3D1");
  assert.equal(status, 200);
  assert.equal(headers.get("cache-control"), "private, no-store");
  assert.equal(body.cache_age, undefined);
  assert.equal(body.type, "rich");
});

Deno.test("GET /oembed keeps its cache entries apart from the API's", async () => {
  await using env = await setup();
  const query = `?url=${encodeURIComponent(`${SITE}/watch`)}`;
  const api = await env.app.json(query);
  assert.deepEqual(Object.keys(api.body.data).sort(), [...DEFAULT_FIELDS].sort());
  const oembed = await env.oembed("/watch");
  assert.equal(oembed.headers.get("x-cache-status"), "MISS");
  assert.equal(oembed.body.type, "video");
  const again = await env.app.json(query);
  assert.equal(again.headers.get("x-cache-status"), "HIT");
  assert.deepEqual(again.body, api.body);
});

Deno.test("the playground advertises /oembed for itself", async () => {
  await using app: TestApp = await testApp(
    testConfig({ env: { PUBLIC_URL: "https://lp.example" } }),
  );
  const response = await app.get("", { headers: { accept: "text/html" } });
  const page = await response.text();
  const links = elements(page).filter((e) =>
    e.name === "link" && /\+oembed$/.test(e.attribs.type!)
  );
  assert.deepEqual(links.map((l) => [l.attribs.type, l.attribs.href]), [
    [
      "application/json+oembed",
      "https://lp.example/oembed?url=https%3A%2F%2Flp.example%2F&format=json",
    ],
    [
      "application/xml+oembed",
      "https://lp.example/oembed?url=https%3A%2F%2Flp.example%2F&format=xml",
    ],
  ]);
});

Deno.test("every /oembed answer fits the OpenAPI document's OembedAnswer schema", async () => {
  await using env = await setup();
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({
    $id: "doc",
    components: openApiDocument(env.app.handler.services.config).components,
  });
  const validate = ajv.compile({ $ref: "doc#/components/schemas/OembedAnswer" });
  const types: string[] = [];
  for (
    const [path, extra] of [
      ["/article", ""],
      ["/watch", "&maxwidth=320"],
      ["/post", ""],
      ["/photo.png", ""],
      ["/gallery", ""],
      ["/article", "&type=link"],
    ]
  ) {
    const { body } = await env.oembed(path!, extra);
    assert.ok(validate(body), `${path}${extra}: ${JSON.stringify(validate.errors)}`);
    types.push(body.type);
  }
  assert.deepEqual(types, ["rich", "video", "rich", "photo", "photo", "link"]);
  // The schema is not a rubber stamp: a photo without its url fails.
  assert.equal(validate({ version: "1.0", type: "photo", width: 1, height: 1 }), false);
  assert.equal(validate({ version: "1.0", type: "rich", html: "<a></a>" }), false);
});
