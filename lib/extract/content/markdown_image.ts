/**
 * Which <img> is content for the Markdown views, and its real source. Tracking pixels,
 * spacers, icons and avatars are dropped; emoji images read as their text; lazy-loading
 * placeholders give way to the URL the page swaps in (data-src, data-srcset, srcset).
 */
import { type Element, isTag } from "domhandler";
import { absoluteUrl, attr } from "../dom/mod.ts";

/** Declared this small (either side, px), an image is a pixel or a spacer. */
const PIXEL_MAX = 2;
/** Declared this small (both sides, px), an image is an icon. */
const ICON_MAX = 32;
/** Class/id tokens of images that are not content. */
const JUNK_NAMES =
  /(?:^|[\s_-])(?:icons?|avatars?|gravatar|spacer|pixel|tracking|tracker|beacon|badge|sprite|logo)(?:$|[\s_-])/i;
/** Sources of images that are not content. */
const JUNK_SOURCES =
  /(?:^|[/._-])(?:spacer|blank|pixel|transparent|1x1|tracking|beacon|clear)\.(?:gif|png)\b|\/(?:pixel|beacon|track|tracking|analytics|collect)(?:[/?.]|$)|[?&](?:utm_|pixel)/i;
/** Sources named as icons: a folder of icons, or a file named for one. */
const ICON_SOURCES = /\/icons?\/|[/._-]icons?[._-][^/]*$|[/._-]icons?$/i;
const LAZY_SOURCES = ["data-src", "data-lazy-src", "data-original", "data-lazy", "data-url"];
const LAZY_SRCSETS = ["data-srcset", "data-lazy-srcset", "srcset"];

/** What an <img> becomes: an image, its text (emoji), or nothing. */
export type ImageView = { src: string; alt: string } | { text: string } | null;

export function imageView(img: Element, base: string): ImageView {
  const alt = (attr(img, "alt") ?? "").trim();
  const names = `${attr(img, "class") ?? ""} ${attr(img, "id") ?? ""}`;
  // Twemoji and WordPress emoji: an image of a character, read as the character.
  if (/(?:^|\s)(?:emoji|wp-smiley|emojione)(?:\s|$)/i.test(names)) {
    return alt ? { text: alt } : null;
  }
  if (attr(img, "role") === "presentation" && !alt) return null;
  if (JUNK_NAMES.test(names)) return null;
  const width = declaredSize(img, "width");
  const height = declaredSize(img, "height");
  if ((width !== null && width <= PIXEL_MAX) || (height !== null && height <= PIXEL_MAX)) {
    return null;
  }
  if (width !== null && height !== null && width <= ICON_MAX && height <= ICON_MAX) return null;
  // Without words, one small side or an icon's file name is enough: a content image says what
  // it shows, or is larger.
  const small = (width !== null && width <= ICON_MAX) || (height !== null && height <= ICON_MAX);
  if (!alt && small) return null;
  const src = imageSource(img, base);
  if (!src || JUNK_SOURCES.test(src) || (!alt && ICON_SOURCES.test(src))) return null;
  return { src, alt };
}

/**
 * The URL the image shows at its best: the largest srcset candidate (a lazy loader's
 * data-srcset first), a <picture>'s sources, a lazy loader's data-src, then `src` (never a
 * data: URI: lazy loaders' placeholders are those, and inline bytes are no link).
 */
export function imageSource(img: Element, base: string): string | null {
  const candidates: string[] = [];
  for (const name of LAZY_SRCSETS) {
    const best = largestCandidate(attr(img, name) ?? "");
    if (best) candidates.push(best);
  }
  const picture = img.parent;
  if (picture && isTag(picture) && picture.name === "picture") {
    for (const child of picture.children) {
      if (isTag(child) && child.name === "source") {
        const best = largestCandidate(attr(child, "srcset") ?? attr(child, "data-srcset") ?? "");
        if (best) candidates.push(best);
      }
    }
  }
  for (const name of LAZY_SOURCES) {
    const value = attr(img, name)?.trim();
    if (value) candidates.push(value);
  }
  // A placeholder-looking `src` ("lazy-river.jpg" may be real) only when nothing else is named.
  const src = attr(img, "src")?.trim() ?? "";
  if (src) candidates.push(src);
  for (const candidate of candidates) {
    if (candidate.startsWith("data:")) continue;
    const url = absoluteUrl(candidate, base);
    if (url) return url;
  }
  return null;
}

/** The widest (or densest) candidate of a srcset, or its first when none says. */
export function largestCandidate(srcset: string): string | null {
  let best: string | null = null;
  let bestWeight = -1;
  // The HTML spec's split: a URL is a run without spaces (commas inside it are kept, as in
  // Cloudinary's `w_100,h_100`; trailing ones end it); its descriptor runs to the next comma.
  const candidate = /[\s,]*([^\s]+)([^,]*)/y;
  for (let m = candidate.exec(srcset); m && m[0]; m = candidate.exec(srcset)) {
    let url = m[1]!;
    let descriptor = m[2]!.trim();
    if (url.endsWith(",")) {
      url = url.replace(/,+$/, "");
      // The comma ended the candidate: what followed was the next one's start.
      candidate.lastIndex = m.index + m[0].length - m[2]!.length;
      descriptor = "";
    }
    if (!url) continue;
    const size = Number.parseFloat(descriptor);
    const weight = Number.isFinite(size) ? size * (descriptor.endsWith("x") ? 10_000 : 1) : 0;
    if (weight > bestWeight) [best, bestWeight] = [url, weight];
  }
  return best;
}

/** A width or height the page declares (attribute or inline style), in px; null when none. */
function declaredSize(img: Element, side: "width" | "height"): number | null {
  const value = attr(img, side) ??
    new RegExp(`(?:^|;)\\s*${side}\\s*:\\s*([\\d.]+)px`, "i").exec(attr(img, "style") ?? "")
      ?.[1];
  if (!value || !/^\s*\d+(?:\.\d+)?\s*(?:px)?\s*$/.test(value)) return null;
  return Number.parseFloat(value);
}
