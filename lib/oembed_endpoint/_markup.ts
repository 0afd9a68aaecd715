/**
 * Text, URLs and sizes as they may enter linkpeek's oEmbed answers: every string escaped for
 * both attribute and text contexts, clipped to a bounded length, URLs only http(s).
 */
import { escapeUTF8 } from "entities";

/** Characters XML 1.0 refuses even as references, and C0/C1 controls nobody means to show. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;

/** Safe in text and in double- or single-quoted attributes (& < > " ' escaped), in HTML and XML. */
export function escape(text: string): string {
  return escapeUTF8(clean(text));
}

/** Lone surrogates become U+FFFD and unwanted controls go: what is left is valid XML text. */
export function clean(text: string): string {
  return text.toWellFormed().replace(UNWANTED, "");
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * At most `max` user-perceived characters, "…" marking a cut. The walk stops at the limit, so
 * a 10 MB string costs no more than a short one.
 */
export function clip(text: string, max: number): string {
  const cleaned = clean(text).trim();
  if (cleaned.length <= max) return cleaned;
  let count = 0;
  for (const { index } of graphemes.segment(cleaned)) {
    if (count++ === max) return `${cleaned.slice(0, index).trimEnd()}…`;
  }
  return cleaned;
}

/** An absolute http(s) URL, serialised (quotes, spaces and brackets percent-encoded), or null. */
export function httpUrl(value: unknown, base?: string): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const url = URL.parse(value.trim(), base);
  return url && (url.protocol === "http:" || url.protocol === "https:") ? url.href : null;
}

/** A site's name when nothing better is known: the URL's host name, without `www.`. */
export function siteName(url: string): string {
  return new URL(url).hostname.replace(/^www\./, "");
}

/** A positive pixel size from a number or a numeric string; null otherwise. */
export function pixels(value: unknown): number | null {
  const number = typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value)
    ? Number(value)
    : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 1
    ? Math.round(number)
    : null;
}

export interface Box {
  width: number;
  height: number;
}

/** Scales a box down (never up), keeping its proportions, to fit within the limits given. */
export function fit(box: Box, limits: { maxWidth: number | null; maxHeight: number | null }): Box {
  const scale = Math.min(
    1,
    limits.maxWidth ? limits.maxWidth / box.width : 1,
    limits.maxHeight ? limits.maxHeight / box.height : 1,
  );
  return {
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
}
