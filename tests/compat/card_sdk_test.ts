/**
 * Microlink's card SDK (@microlink/vanilla, pinned) in real Chromium, pointed at linkpeek with
 * its `endpoint` option: a host page on one loopback origin, linkpeek on another, the target
 * page on a third. Chromium resolves nothing but loopback, so the SDK's image proxy
 * (images.weserv.nl, used for non-local URLs) could not be reached even by mistake.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { launchLoopbackChromium, requireChromium } from "../browser/_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";
import { mp3Cbr, png, webm } from "../media/_fixtures.ts";
import { serveLinkpeek } from "../ops/_listen.ts";
import { serveCardHost } from "./_card_host.ts";

const TITLE = "Card SDK target";
const DESCRIPTION = "A page the Microlink card renders through linkpeek.";

function targetSite() {
  const site = serve({
    "/page": (_request, fixture) =>
      html(`<!doctype html><html lang="en"><head>
<title>${TITLE}</title>
<meta property="og:title" content="${TITLE}">
<meta name="description" content="${DESCRIPTION}">
<meta property="og:image" content="/cover.png">
<meta property="og:video" content="/clip.webm"><meta property="og:video:type" content="video/webm">
<meta property="og:audio" content="/sound.mp3"><meta property="og:audio:type" content="audio/mpeg">
<link rel="icon" type="image/png" sizes="32x32" href="/logo.png">
<link rel="alternate" type="application/json+oembed" href="${fixture.origin}/oembed">
</head><body><h1>${TITLE}</h1></body></html>`),
    "/cover.png": () => bytes(png(64, 32), "image/png"),
    "/logo.png": () => bytes(png(32, 32, () => [20, 20, 200]), "image/png"),
    "/clip.webm": () => bytes(webm({ duration: 2000 }), "video/webm"),
    "/sound.mp3": () => bytes(mp3Cbr(40), "audio/mpeg"),
    "/oembed": (_request, fixture) =>
      Response.json({
        type: "rich",
        version: "1.0",
        html: `<div class="provider-widget">Provider widget</div>` +
          `<script async src="${fixture.origin}/widget.js" charset="utf-8"></script>`,
      }),
    "/widget.js": () =>
      new Response(`document.querySelector(".provider-widget").dataset.ready = "yes";`, {
        headers: { "content-type": "text/javascript" },
      }),
  });
  return site;
}

function bytes(body: Uint8Array, type: string): Response {
  return new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } });
}

/** Renders one card with `options` and waits for the SDK to leave its loading state. */
async function renderCard(
  tab: Page,
  options: { url: string; endpoint: string; media: string[] },
): Promise<void> {
  await tab.evaluate((o) => {
    document.body.innerHTML = `<a class="link" href="${o.url}">link</a>`;
    // deno-lint-ignore no-explicit-any
    (globalThis as any).microlink(".link", {
      endpoint: o.endpoint,
      media: o.media,
      lazy: false,
    });
  }, options);
  await tab.waitForFunction(
    () =>
      document.querySelector(".microlink_card__content_title, .microlink_card__iframe") !== null ||
      document.querySelector(".microlink_vanilla > a:not(.microlink_card)") !== null,
    { timeout: 60_000 },
  );
}

Deno.test("Microlink's card SDK renders linkpeek's answers in Chromium", async (t) => {
  requireChromium();
  await using site = targetSite();
  const config = testConfig({
    trustPorts: [site.port],
    env: { CHROMIUM_PATH: "/usr/bin/chromium" },
  });
  await using app = await serveLinkpeek(config);
  await using host = serveCardHost();
  const url = `${site.origin}/page`;
  const endpoint = app.origin;
  const browser = await launchLoopbackChromium();
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (error) => errors.push(String(error)));
    await tab.goto(`${host.origin}/`);

    const card = () =>
      tab.evaluate(() => {
        const text = (selector: string) => document.querySelector(selector)?.textContent ?? null;
        const image = document.querySelector(".microlink_card__media_image");
        return {
          error: document.querySelector(".microlink_vanilla > a:not(.microlink_card)") !== null,
          title: text(".microlink_card__content_title"),
          description: text(".microlink_card__content_description"),
          image: image ? getComputedStyle(image).backgroundImage : null,
          video: document.querySelector("video.microlink_card__media_video")?.getAttribute("src"),
          audio: document.querySelector("audio.microlink_card__media_audio")?.getAttribute("src"),
        };
      });

    await t.step("a card with title, description and the page's image", async () => {
      await renderCard(tab, { url, endpoint, media: ["image"] });
      const shown = await card();
      assert.equal(shown.error, false);
      assert.equal(shown.title, TITLE);
      assert.equal(shown.description, DESCRIPTION);
      assert.equal(shown.image, `url("${site.origin}/cover.png")`);
    });

    await t.step("media: logo shows the page's logo", async () => {
      await renderCard(tab, { url, endpoint, media: ["logo"] });
      const shown = await card();
      assert.equal(shown.title, TITLE);
      assert.equal(shown.image, `url("${site.origin}/logo.png")`);
    });

    await t.step("media: screenshot shows a capture linkpeek hosts", async () => {
      await renderCard(tab, { url, endpoint, media: ["screenshot"] });
      const shown = await card();
      assert.match(shown.image ?? "", new RegExp(`^url\\("${app.origin}/assets/`));
      const loaded = await tab.evaluate(async (css: string) => {
        const src = css.slice(5, -2);
        const response = await fetch(src);
        return { type: response.headers.get("content-type"), size: (await response.blob()).size };
      }, shown.image!);
      assert.equal(loaded.type, "image/png");
      assert.ok(loaded.size > 1000, `${loaded.size} bytes`);
    });

    await t.step("media: video plays the page's video in a <video>", async () => {
      await renderCard(tab, { url, endpoint, media: ["video"] });
      assert.equal((await card()).video, `${site.origin}/clip.webm`);
    });

    await t.step("media: audio plays the page's audio in an <audio>", async () => {
      await renderCard(tab, { url, endpoint, media: ["audio"] });
      assert.equal((await card()).audio, `${site.origin}/sound.mp3`);
    });

    await t.step("media: iframe embeds the provider's html and runs its scripts", async () => {
      await renderCard(tab, { url, endpoint, media: ["iframe"] });
      await tab.waitForFunction(
        () => document.querySelector(".microlink_card__iframe .provider-widget"),
        { timeout: 30_000 },
      );
      const widget = await tab.$eval(".provider-widget", (e) => e.textContent);
      assert.equal(widget, "Provider widget");
      // The SDK adds each of iframe.scripts as a <script> from its attributes, as Microlink
      // answers them ({ src, async, charset }): the provider's script must load and run.
      await tab.waitForFunction(
        () => document.querySelector<HTMLElement>(".provider-widget")?.dataset.ready === "yes",
        { timeout: 30_000 },
      );
    });

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
