/** Text normalisers shared by the field rules: whitespace, entities, typographic quotes. */
import { decodeHTML } from "entities";

/** Collapses runs of whitespace (incl. NBSP) to one space and trims. */
export function collapse(s: string): string {
  return s.replace(/[\s\u00a0\u200b\ufeff]+/g, " ").trim();
}

/** Decodes entities left in a value (double-encoded meta content, JSON-LD strings). */
export function decodeEntities(s: string): string {
  return s.includes("&") ? decodeHTML(s) : s;
}

/**
 * Whitespace-collapsed text, or null when nothing is left. The parser decoded entities once
 * already; a second decoding would change what the page says ("&amp;amp;" reads "&amp;").
 */
export function cleanText(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const s = collapse(value);
  return s === "" ? null : s;
}

/**
 * Straight quotes to typographic ones, the way Microlink's titles and descriptions read
 * ("it's" -> "it’s", "say "hi"" -> "say “hi”"). Primes after digits stay as they are.
 */
export function smartQuotes(s: string): string {
  if (!s.includes('"') && !s.includes("'")) return s;
  return s
    // opening double quote: at start or after a non-word char, before a word char
    .replace(/(^|[^\w])"(?=\w)/g, "$1\u201c")
    // a closing double quote follows an opened one
    .replace(/(\u201c[^"]*)"/g, "$1\u201d")
    // any other double quote after a non-digit closes
    .replace(/([^0-9])"/g, "$1\u201d")
    // apostrophe inside a word: it's, O'Neil
    .replace(/(\w)'(\w)/g, "$1\u2019$2")
    // abbreviated years: '93
    .replace(/(^|\s)'(\d\d)(?!\d)/g, "$1\u2019$2")
    // opening single quote
    .replace(/(^|[^\w])'(?=\S)/g, "$1\u2018")
    // closing single quote
    .replace(/([^\s\d])'/g, "$1\u2019");
}

/** Removes a leading "By ", "By:", "@" or a "By" glued to the name ("ByJane Doe") from bylines. */
export function removeBy(s: string): string {
  return collapse(s.replace(/^\s*(?:by\b[:\s]*|@\s*)/i, "").replace(/^By(?=\p{Lu}\p{Ll})/u, ""));
}

/** True when the whole value is an http(s) URL or starts like one ("www.x.com/y"). */
export function looksLikeUrl(s: string): boolean {
  return /^(https?:)?\/\/\S+$/i.test(s) || /^www\.[^\s]+\.[a-z]{2,}(\/\S*)?$/i.test(s);
}
