/**
 * The link-preview card of a `rich` answer: self-contained HTML (inline styles, no script, no
 * <style>, which many consumers strip), every text and URL escaped, images only the verified
 * http(s) ones the payload holds. It takes the consumer's colours (colour inherited, background
 * transparent, greys translucent), so one card reads on light and dark pages alike. Text runs
 * in its own direction (dir="auto"); long text is clipped on the server and clamped in the
 * browser, and breaks anywhere rather than overflow. 320-640 px wide.
 */
import type { MediaObject } from "../util/payload_types.ts";
import { type Box, clip, escape, httpUrl, siteName } from "./_markup.ts";

export interface CardContent {
  url: string;
  title: string | null;
  description: string | null;
  /** Who publishes the page; its host stands in. */
  publisher: string | null;
  /** ISO 639-1, for the browser's fonts and line breaking. */
  lang: string | null;
  image: MediaObject | null;
  logo: MediaObject | null;
}

export interface Card extends Box {
  html: string;
  layout: "hero" | "thumbnail" | "text";
}

/** The widest a card gets, whatever maxwidth allows. */
export const CARD_WIDTH = 600;
/** A hero image's box: 40:21, the 1200x630 of Open Graph images. */
export const HERO_RATIO = 21 / 40;
export const THUMBNAIL = 88;
/** What title, description and footer take, at most: padding, 2 + 3 lines, footer. */
const TEXT_HEIGHT = 156;

const LIMITS = { title: 200, description: 400, footer: 120 };

const FONT =
  "font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,Helvetica Neue,Arial,sans-serif";
const CLAMP = "display:-webkit-box;-webkit-box-orient:vertical;overflow:hidden;" +
  "overflow-wrap:anywhere;word-break:break-word;margin:0";
const PLACEHOLDER = "background:rgba(127,127,127,.15)";

const STYLE = {
  card: "display:block;box-sizing:border-box;width:100%;margin:0;padding:0;overflow:hidden;" +
    "border:1px solid rgba(127,127,127,.4);border-radius:10px;background:transparent;" +
    `color:inherit;text-decoration:none;text-align:start;${FONT}`,
  row: "display:flex;align-items:flex-start",
  hero: "display:block;box-sizing:border-box;width:100%;height:auto;aspect-ratio:40/21;" +
    `object-fit:cover;margin:0;padding:0;border:0;${PLACEHOLDER}`,
  thumbnail: `display:block;flex:none;box-sizing:border-box;width:${THUMBNAIL}px;` +
    `height:${THUMBNAIL}px;margin:12px;margin-inline-end:0;padding:0;border:0;` +
    `border-radius:6px;object-fit:cover;${PLACEHOLDER}`,
  body: "display:block;box-sizing:border-box;flex:1 1 auto;min-width:0;padding:12px 14px",
  title: `${CLAMP};-webkit-line-clamp:2;max-height:2.7em;font-size:16px;font-weight:600;` +
    "line-height:1.35",
  description: (lines: number) =>
    `${CLAMP};-webkit-line-clamp:${lines};max-height:${lines * 14 / 10}em;margin-top:4px;` +
    "opacity:.8",
  footer: "display:flex;align-items:center;gap:6px;min-width:0;margin:8px 0 0;font-size:12px;" +
    "line-height:1.4;opacity:.7",
  logo: "display:block;flex:none;width:16px;height:16px;margin:0;padding:0;border:0;" +
    "border-radius:3px;object-fit:contain",
  site: "display:block;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap",
};

function attributes(pairs: Record<string, string | number | null>): string {
  return Object.entries(pairs)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => ` ${name}="${escape(String(value))}"`)
    .join("");
}

function image(src: string, box: Box, style: string): string {
  return `<img${
    attributes({
      src,
      alt: "",
      width: box.width,
      height: box.height,
      loading: "lazy",
      decoding: "async",
      referrerpolicy: "no-referrer",
      style,
    })
  } />`;
}

function span(text: string, style: string, dir: "auto" | null = "auto"): string {
  return `<span${attributes({ dir, style })}>${escape(text)}</span>`;
}

/** A wide image leads the card; a small or square one sits beside the text. */
function layoutFor(
  image: MediaObject | null,
  width: number,
  maxHeight: number | null,
): Card["layout"] {
  if (!image || !httpUrl(image.url)) return "text";
  const wide = image.width !== null && image.height !== null && image.width >= 400 &&
    image.width >= image.height * 1.3;
  const tall = Math.round(width * HERO_RATIO) + TEXT_HEIGHT;
  return wide && (maxHeight === null || tall <= maxHeight) ? "hero" : "thumbnail";
}

/** The card, at most `maxWidth` (and CARD_WIDTH) wide and `maxHeight` tall. */
export function renderCard(
  content: CardContent,
  limits: { maxWidth: number | null; maxHeight: number | null },
): Card {
  const url = httpUrl(content.url);
  if (!url) throw new TypeError("A card links http(s) pages only.");
  const width = Math.min(limits.maxWidth ?? CARD_WIDTH, CARD_WIDTH);
  const layout = layoutFor(content.image, width, limits.maxHeight);
  const host = siteName(url);
  const title = clip(content.title ?? host, LIMITS.title);
  const logo = httpUrl(content.logo?.url);
  const site = clip(content.publisher ?? host, LIMITS.footer);

  const text = [
    // The title takes the card's direction (dir="auto" on the card reads the title first).
    span(title, STYLE.title, null),
    content.description
      ? span(
        clip(content.description, LIMITS.description),
        STYLE.description(layout === "hero" ? 3 : 2),
      )
      : "",
    `<span${attributes({ style: STYLE.footer })}>${
      logo ? image(logo, { width: 16, height: 16 }, STYLE.logo) : ""
    }${span(site, STYLE.site)}</span>`,
  ].join("");
  const body = `<span${attributes({ style: STYLE.body })}>${text}</span>`;

  const src = httpUrl(content.image?.url);
  const hero = { width, height: Math.round(width * HERO_RATIO) };
  const media = src && layout === "hero"
    ? image(src, hero, STYLE.hero)
    : src && layout === "thumbnail"
    ? image(src, { width: THUMBNAIL, height: THUMBNAIL }, STYLE.thumbnail)
    : "";
  const maxHeight = limits.maxHeight === null ? "" : `;max-height:${limits.maxHeight}px`;
  const style = `${STYLE.card};max-width:${width}px${maxHeight}` +
    (layout === "thumbnail" ? `;${STYLE.row}` : "");
  const lang = content.lang && /^[a-z]{2,3}$/.test(content.lang) ? content.lang : null;
  const html = `<a${
    attributes({
      href: url,
      target: "_blank",
      rel: "noopener noreferrer",
      title,
      dir: "auto",
      lang,
      style,
    })
  }>${media}${body}</a>`;

  const estimate = layout === "hero"
    ? hero.height + TEXT_HEIGHT
    : Math.max(layout === "thumbnail" ? THUMBNAIL + 24 : 0, TEXT_HEIGHT);
  return { html, layout, width, height: Math.min(estimate, limits.maxHeight ?? Infinity) };
}
