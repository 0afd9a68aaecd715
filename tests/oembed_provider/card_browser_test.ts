/**
 * The card as a consumer shows it: real Chromium renders it inside a host page at 320 and 640 px,
 * in light and dark colour schemes, and the layout is measured in the page (card width, image
 * box, every text box inside the card and nothing wider than its box) and read back from a
 * screenshot. The card's images are answered from memory by request interception, and Chromium's
 * proxy is a loopback sink that refuses everything (Chromium's own background requests end
 * there): the page's requests must never reach it, and nothing leaves the machine.
 *
 * Set OEMBED_CARD_DIR to keep the screenshots (oembed-card-<card>-<width>-<scheme>.png, and
 * oembed-card.png for the article at 640 px, light).
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import type { Page } from "puppeteer-core";
import { launchChromium, removeDir } from "../../lib/browser/launch.ts";
import { type CardContent, renderCard, THUMBNAIL } from "../../lib/oembed_endpoint/card.ts";
import type { MediaObject } from "../../lib/util/payload_types.ts";
import { CHROMIUM, decode, requireChromium } from "../browser/_helpers.ts";

/** A proxy on loopback that answers 403 to everything and keeps each request's first line. */
function proxySink(): { port: number; lines: string[] } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const lines: string[] = [];
  const loop = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(4096);
      const read = await conn.read(buffer).catch(() => null);
      lines.push(new TextDecoder().decode(buffer.subarray(0, read ?? 0)).split("\r\n")[0]!);
      await conn.write(new TextEncoder().encode(
        "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
      )).catch(() => {});
      conn.close();
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    lines,
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop.catch(() => {});
    },
  };
}

/** A 1200x630 left-to-right gradient from teal to indigo: the hero image. */
function gradient(width: number, height: number): Uint8Array {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = x / (width - 1);
      png.data.set(
        [Math.round(20 + 60 * t), Math.round(160 - 110 * t), Math.round(150 + 60 * t), 255],
        (y * width + x) * 4,
      );
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

const IMAGES: Record<string, Uint8Array> = {
  "https://images.example/hero.png": gradient(1200, 630),
  "https://images.example/square.png": gradient(300, 300),
  "https://images.example/logo.png": gradient(32, 32),
};

const media = (url: string, width: number, height: number): MediaObject => ({
  url,
  type: "png",
  size: IMAGES[url]!.length,
  size_pretty: null,
  width,
  height,
});

const CARDS: Record<string, CardContent> = {
  article: {
    url: "https://journal.example/2026/calm-interfaces",
    title: "Designing calm interfaces for busy people",
    description:
      "Fewer notifications, quieter colours and honest defaults: what a year of user interviews taught us about software that respects attention.",
    publisher: "The Example Journal",
    lang: "en",
    image: media("https://images.example/hero.png", 1200, 630),
    logo: media("https://images.example/logo.png", 32, 32),
  },
  hostile: {
    url: "https://hostile.example/x",
    title: `<script>alert("x")</script> "quoted" 'single' ${"W".repeat(10_240)}`,
    description: `${"https://a.example/".repeat(600)} <img src=x onerror=alert(1)>`,
    publisher: "P".repeat(10_240),
    lang: "en",
    image: media("https://images.example/square.png", 300, 300),
    logo: media("https://images.example/logo.png", 32, 32),
  },
  rtl: {
    url: "https://news.example/ar/1",
    title: "عنوان المقال باللغة العربية مع نص طويل بما يكفي ليلتف على سطرين أو أكثر في البطاقة",
    description: "וזה תיאור בעברית, ארוך מספיק כדי לעבור לשורה נוספת ולהיחתך בסוף הקופסה.",
    publisher: "أخبار المثال",
    lang: "ar",
    image: null,
    logo: null,
  },
};

// Code passed to page.evaluate runs in the page; this file is type-checked without the DOM lib.
// deno-lint-ignore no-explicit-any
type Any = any;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
  x: number;
  y: number;
}

interface Measured {
  card: Box;
  cardInnerWidth: number;
  images: { src: string; rect: Box; complete: boolean; natural: number }[];
  texts: {
    text: string;
    rect: Box;
    scrollWidth: number;
    clientWidth: number;
    oneLine: boolean;
    ellipsis: boolean;
  }[];
  pageScrollWidth: number;
  viewport: number;
  titleColor: string;
  direction: string;
}

/** Everything the assertions need, measured inside the page once images and fonts are in. */
function measure(page: Page): Promise<Measured> {
  return page.evaluate(async () => {
    const document = (globalThis as Any).document;
    const style = (el: Any) => (globalThis as Any).getComputedStyle(el);
    const images: Any[] = [...document.images];
    await Promise.all(images.map((img) => img.decode().catch(() => {})));
    await document.fonts.ready;
    const card = document.querySelector("#host > a");
    const border = parseFloat(style(card).borderLeftWidth) +
      parseFloat(style(card).borderRightWidth);
    const rect = (el: Any): Box => el.getBoundingClientRect().toJSON();
    const leaves: Any[] = [...card.querySelectorAll("span")]
      .filter((span: Any) => span.children.length === 0);
    return {
      card: rect(card),
      cardInnerWidth: card.getBoundingClientRect().width - border,
      images: images.map((img) => ({
        src: img.currentSrc,
        rect: rect(img),
        complete: img.complete,
        natural: img.naturalWidth,
      })),
      texts: leaves.map((span) => ({
        text: span.textContent ?? "",
        rect: rect(span),
        scrollWidth: span.scrollWidth,
        clientWidth: span.clientWidth,
        oneLine: style(span).whiteSpace === "nowrap",
        ellipsis: style(span).textOverflow === "ellipsis" && style(span).overflowX === "hidden",
      })),
      pageScrollWidth: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
      titleColor: style(card.querySelector("span > span")).color,
      direction: style(card).direction,
    };
  });
}

/** The host page: a consumer's article column that follows the reader's colour scheme. */
function hostPage(card: string): string {
  return `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width">
<meta name="color-scheme" content="light dark">
<style>body{margin:16px;font-family:sans-serif}</style></head>
<body><div id="host">${card}</div></body></html>`;
}

const within = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;

function luminance([r, g, b]: readonly number[]): number {
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

Deno.test("renderCard() lays out in Chromium at 320 and 640 px, light and dark", async (t) => {
  requireChromium();
  await using sink = proxySink();
  const { browser, userDataDir } = await launchChromium({
    executablePath: CHROMIUM,
    proxyPort: sink.port,
  });
  const keep = Deno.env.get("OEMBED_CARD_DIR");
  try {
    const page = await browser.newPage();
    await page.setRequestInterception(true);
    const asked: string[] = [];
    page.on("request", (request) => {
      const bytes = IMAGES[request.url()];
      if (request.isInterceptResolutionHandled()) return;
      if (bytes) {
        asked.push(request.url());
        void request.respond({ status: 200, contentType: "image/png", body: Buffer.from(bytes) });
      } else {
        void request.abort();
      }
    });

    for (const [name, content] of Object.entries(CARDS)) {
      const card = renderCard(content, { maxWidth: null, maxHeight: null });
      for (const width of [320, 640]) {
        for (const scheme of ["light", "dark"] as const) {
          await t.step(`${name} at ${width} px, ${scheme}`, async () => {
            await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
            await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
            await page.setContent(hostPage(card.html), { waitUntil: "load" });
            const m = await measure(page);

            // Width: within the column (16 px margins) and never past the card's own maximum.
            assert.ok(m.card.width <= Math.min(card.width, width - 32) + 0.5, `${m.card.width}`);
            assert.ok(m.card.width >= Math.min(card.width, width - 32) - 0.5, `${m.card.width}`);
            assert.ok(m.pageScrollWidth <= m.viewport, "the page never scrolls sideways");

            // Images: loaded, inside the card, in the box the layout promises.
            for (const image of m.images) {
              assert.ok(image.complete && image.natural > 0, `${image.src} loaded`);
              assert.ok(within(image.rect, m.card), `${image.src} inside the card`);
            }
            const main = m.images.find((i) => !i.src.endsWith("logo.png"));
            if (card.layout === "hero") {
              assert.ok(Math.abs(main!.rect.width - m.cardInnerWidth) <= 0.5);
              assert.ok(Math.abs(main!.rect.height - m.cardInnerWidth * 21 / 40) <= 1);
            } else if (card.layout === "thumbnail") {
              assert.equal(main!.rect.width, THUMBNAIL);
              assert.equal(main!.rect.height, THUMBNAIL);
            } else {
              assert.equal(main, undefined);
            }
            const logo = m.images.find((i) => i.src.endsWith("logo.png"));
            if (content.logo) assert.deepEqual([logo!.rect.width, logo!.rect.height], [16, 16]);

            // Text: every box inside the card, none wider than its box, clamped not spilled.
            assert.ok(m.texts.length >= 2);
            for (const text of m.texts) {
              const said = `"${text.text.slice(0, 30)}"`;
              assert.ok(within(text.rect, m.card), `${said} inside the card`);
              // Wrapped text never runs wider than its box; a one-line box cuts with an ellipsis.
              if (text.oneLine) assert.ok(text.ellipsis, `${said} ends in an ellipsis`);
              else assert.ok(text.scrollWidth <= text.clientWidth, `${said} fits its box`);
            }
            assert.ok(m.card.height <= card.height + 1, `${m.card.height} <= ${card.height}`);
            assert.equal(m.direction, name === "rtl" ? "rtl" : "ltr");

            // Colours follow the host page: light text on dark, dark text on light.
            const title = luminance(m.titleColor.match(/\d+/g)!.map(Number));
            assert.ok(scheme === "dark" ? title > 180 : title < 60, m.titleColor);

            const shot = await page.screenshot({
              clip: { x: m.card.x, y: m.card.y, width: m.card.width, height: m.card.height },
            });
            const png = decode(shot);
            assert.equal(png.width, Math.round(m.card.width));
            // The background just inside the card's bottom corner is the host's own.
            const corner = luminance(png.pixel(png.width - 12, png.height - 4));
            assert.ok(scheme === "dark" ? corner < 60 : corner > 200, `corner ${corner}`);
            if (card.layout === "hero") {
              // The hero's middle shows the gradient's middle (teal-indigo blend).
              const [r, g, b] = png.pixel(
                Math.round(png.width / 2),
                Math.round(m.cardInnerWidth * 21 / 80),
              );
              assert.ok(
                Math.abs(r! - 50) < 14 && Math.abs(g! - 105) < 14 && Math.abs(b! - 180) < 14,
              );
            }
            if (keep) {
              const file = `${keep}/oembed-card-${name}-${width}-${scheme}.png`;
              await Deno.writeFile(file, shot);
              if (name === "article" && width === 640 && scheme === "light") {
                await Deno.writeFile(`${keep}/oembed-card.png`, shot);
              }
            }
          });
        }
      }
    }
    assert.ok(asked.includes("https://images.example/hero.png"));
    await page.close();
  } finally {
    await browser.close();
    await removeDir(userDataDir);
  }
  const leaked = sink.lines.filter((line) => line.includes(".example"));
  assert.deepEqual(leaked, [], "the page's requests all stayed with request interception");
});
