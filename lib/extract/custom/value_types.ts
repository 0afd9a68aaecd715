/**
 * The `type` of a custom rule: validates and normalises one extracted value. A value that does
 * not fit its type is null, so that fallback rules move on to the next candidate. A type named
 * after a field is that field's own normaliser (metascraper's `validator` map), so a custom
 * `date` rule reads a date exactly as the `date` field does.
 */
import { isIP } from "node:net";
import { emptyRecord } from "../stream/collect.ts";
import { JsonLd } from "../fields/jsonld.ts";
import {
  normaliseAuthor,
  normaliseDate,
  normaliseDescription,
  normaliseImage,
  normaliseLang,
  normaliseLogo,
  normalisePublisher,
  normaliseTitle,
  normaliseUrl,
} from "../mod.ts";
import type { Context } from "../fields/rules.ts";
import { looksLikeSrcset } from "../fields/srcset.ts";
import { parseJson } from "../../util/json_depth.ts";
import type { MediaField } from "../../util/payload_types.ts";
import { unverifiedMedia } from "../../media/unverified.ts";

export const RULE_TYPES = [
  "auto",
  "string",
  "number",
  "boolean",
  "date",
  "url",
  "image",
  "logo",
  "audio",
  "video",
  "email",
  "ip",
  "lang",
  "author",
  "description",
  "publisher",
  "title",
  "object",
  "regexp",
] as const;
export type RuleType = typeof RULE_TYPES[number];

export function isRuleType(value: string): value is RuleType {
  return (RULE_TYPES as readonly string[]).includes(value);
}

/** What the page says of its language, which decides how a numeric date reads (05/06/2019). */
export interface PageLocale {
  htmlLang?: string | null;
  ogLocale?: string | null;
  contentLanguage?: string | null;
}

/** The context the field normalisers read, for a page at `url` (relative URLs from `base`). */
export function typeContext(url: string, base = url, locale: PageLocale = {}): Context {
  const rec = emptyRecord();
  rec.htmlLang = locale.htmlLang ?? null;
  if (locale.ogLocale) rec.meta.set("og:locale", [locale.ogLocale]);
  if (locale.contentLanguage) rec.meta.set("content-language", [locale.contentLanguage]);
  const ld = new JsonLd([]);
  return { rec, ld, url, base, platform: null, fetched: null, memos: new Map() };
}

type FieldNormaliser = (value: unknown, ctx: Context) => string | null;

/** The types that are fields: each is that field's normaliser. */
const FIELDS: Partial<Record<RuleType, FieldNormaliser>> = {
  title: normaliseTitle,
  description: normaliseDescription,
  publisher: normalisePublisher,
  author: normaliseAuthor,
  date: normaliseDate,
  lang: normaliseLang,
  url: normaliseUrl,
};

/**
 * Media types answer a media object, as the default fields do: here only what the URL tells
 * (`unverifiedMedia`); the request's probes fill in the rest (verifyCustomMedia). The rule's
 * type declares the kind, as a declared MIME type does for the audio and video fields, so
 * those need no media extension: any URL passes.
 */
export const MEDIA: Partial<Record<RuleType, FieldNormaliser>> = {
  image: normaliseImage,
  logo: normaliseLogo,
  audio: normaliseUrl,
  video: normaliseUrl,
};

/**
 * Applies `type` to a raw value read from the page; `at` gives the page's context (typeContext,
 * built only when a field type needs it), or is the URL relative values resolve against.
 */
export function applyType(raw: unknown, type: RuleType, at: (() => Context) | string): unknown {
  if (typeof raw !== "string") {
    // Only `json` reads produce non-strings; they pass as they are for auto and object.
    return (type === "auto" || type === "object") && raw !== undefined ? raw : null;
  }
  const field = FIELDS[type];
  const media = MEDIA[type];
  if (field || media) {
    const ctx = typeof at === "string" ? typeContext(at) : at();
    // Text with inner spaces is prose, not a URL (a field reads URLs from attributes only),
    // unless it is an image's srcset.
    const prose = /\s/.test(raw.trim()) && !(media === normaliseImage && looksLikeSrcset(raw));
    if ((media || type === "url") && prose) return null;
    if (field) return field(raw, ctx);
    const url = media!(raw, ctx);
    return url ? unverifiedMedia(type as MediaField, url) : null;
  }
  switch (type) {
    case "auto":
    case "string":
      return nonEmpty(raw.trim());
    case "number":
      return toNumber(raw);
    case "boolean":
      return toBoolean(raw);
    case "email":
      return toEmail(raw);
    case "ip": {
      const ip = raw.trim();
      return isIP(ip) ? ip : null;
    }
    case "object":
      return toObject(raw);
    case "regexp":
      return toRegexp(raw);
  }
  return null;
}

/** Longest text `regexp` compiles: page text, so the compile stays bounded. */
const MAX_REGEXP = 2048;

/**
 * `regexp`: text that is a valid JavaScript regular expression, `/source/flags` or a bare
 * source, answered as that text (a RegExp has no JSON form); null when it does not compile.
 */
function toRegexp(raw: string): string | null {
  const text = raw.trim();
  if (text === "" || text.length > MAX_REGEXP) return null;
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(text);
  try {
    new RegExp(literal ? literal[1]! : text, literal ? literal[2] : "");
    return text;
  } catch {
    return null;
  }
}

function nonEmpty(value: string): string | null {
  return value === "" ? null : value;
}

/**
 * The first number in the text, with grouping understood: "1,234.50" -> 1234.5,
 * "1.234,50" -> 1234.5, "3,5" -> 3.5, "$ 12" -> 12, "-4" -> -4. No digits: null.
 */
export function toNumber(raw: string): number | null {
  const match = /([-+\u2212]?)(\d(?:[\d.,'\u00a0\u202f]*\d)?)/.exec(raw);
  if (!match) return null;
  const sign = match[1] === "-" || match[1] === "\u2212" ? -1 : 1;
  let digits = match[2]!.replace(/['\u00a0\u202f]/g, "");
  const lastDot = digits.lastIndexOf(".");
  const lastComma = digits.lastIndexOf(",");
  if (lastDot >= 0 && lastComma >= 0) {
    // Both present: the later one is the decimal separator.
    const decimal = lastDot > lastComma ? "." : ",";
    const group = decimal === "." ? "," : ".";
    digits = digits.split(group).join("").replace(decimal, ".");
  } else if (lastComma >= 0) {
    digits = isGrouping(digits, ",") ? digits.replaceAll(",", "") : digits.replace(",", ".");
  } else if (lastDot >= 0 && isGrouping(digits, ".") && digits.split(".").length > 2) {
    digits = digits.replaceAll(".", "");
  }
  // parseFloat: "1.2.3" (a version) reads as 1.2 rather than nothing.
  const value = parseFloat(digits);
  return Number.isFinite(value) ? sign * value : null;
}

/** True when `sep` groups thousands: every group after the first has exactly 3 digits. */
function isGrouping(digits: string, sep: string): boolean {
  const parts = digits.split(sep);
  if (parts.length > 2) return parts.slice(1).every((p) => p.length === 3);
  return parts[1]?.length === 3;
}

const TRUE = new Set(["true", "yes", "on", "1"]);
const FALSE = new Set(["false", "no", "off", "0"]);

function toBoolean(raw: string): boolean | null {
  const value = raw.trim().toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  return null;
}

function toEmail(raw: string): string | null {
  const value = raw.trim().replace(/^mailto:/i, "").split("?")[0]!;
  if (!/^[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[a-z]{2,}$/i.test(value)) return null;
  const at = value.lastIndexOf("@");
  return value.slice(0, at) + "@" + value.slice(at + 1).toLowerCase();
}

function toObject(raw: string): unknown {
  try {
    const value: unknown = parseJson(raw);
    return value !== null && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}
