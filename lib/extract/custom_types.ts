/**
 * The `type` of a custom rule: validates and normalises one extracted value. A value that does
 * not fit its type is null, so that fallback rules move on to the next candidate.
 */
import { isIP } from "node:net";
import { absoluteUrl, collapse } from "./dom.ts";

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
] as const;
export type RuleType = typeof RULE_TYPES[number];

export function isRuleType(value: string): value is RuleType {
  return (RULE_TYPES as readonly string[]).includes(value);
}

/** Applies `type` to a raw value read from the page; `base` resolves relative URLs. */
export function applyType(raw: unknown, type: RuleType, base: string): unknown {
  if (typeof raw !== "string") {
    // Only `json` reads produce non-strings; they pass as they are for auto and object.
    return (type === "auto" || type === "object") && raw !== undefined ? raw : null;
  }
  switch (type) {
    case "auto":
    case "string":
      return nonEmpty(raw.trim());
    case "title":
    case "description":
    case "publisher":
      return nonEmpty(collapse(raw));
    case "author":
      return toAuthor(raw);
    case "number":
      return toNumber(raw);
    case "boolean":
      return toBoolean(raw);
    case "date":
      return toDate(raw);
    case "url":
      return toUrl(raw, base);
    case "image":
    case "logo":
    case "audio":
    case "video": {
      const url = toUrl(raw, base);
      return url ? { url } : null;
    }
    case "email":
      return toEmail(raw);
    case "ip": {
      const ip = raw.trim();
      return isIP(ip) ? ip : null;
    }
    case "lang":
      return toLang(raw);
    case "object":
      return toObject(raw);
  }
  return null;
}

/** Absolute http(s) URL; text with inner spaces is prose, not a URL. */
function toUrl(raw: string, base: string): string | null {
  const value = raw.trim();
  return /\s/.test(value) ? null : absoluteUrl(value, base);
}

function nonEmpty(value: string): string | null {
  return value === "" ? null : value;
}

function toAuthor(raw: string): string | null {
  const value = collapse(raw).replace(/^by\s+/i, "");
  // A URL or a bare number is not a name.
  if (/^(https?:)?\/\//i.test(value) || /^\d+$/.test(value)) return null;
  return nonEmpty(value);
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

/** ISO 8601 from a date string or a Unix timestamp (seconds or milliseconds). */
export function toDate(raw: string): string | null {
  const value = collapse(raw);
  if (!value) return null;
  let time: number;
  if (/^\d{10}$/.test(value)) time = Number(value) * 1000;
  else if (/^\d{13}$/.test(value)) time = Number(value);
  else if (/^\d+$/.test(value) && value.length !== 4) return null;
  else time = Date.parse(value);
  if (!Number.isFinite(time)) return null;
  const date = new Date(time);
  const year = date.getUTCFullYear();
  return year >= 1000 && year <= 9999 ? date.toISOString() : null;
}

function toEmail(raw: string): string | null {
  const value = raw.trim().replace(/^mailto:/i, "").split("?")[0]!;
  if (!/^[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[a-z]{2,}$/i.test(value)) return null;
  const at = value.lastIndexOf("@");
  return value.slice(0, at) + "@" + value.slice(at + 1).toLowerCase();
}

/** ISO 639-1 from a language tag: "en-US" -> "en", "pt_BR" -> "pt". */
function toLang(raw: string): string | null {
  const match = /^([a-z]{2})(?:[-_][a-z0-9]{1,8})*$/i.exec(raw.trim());
  return match ? match[1]!.toLowerCase() : null;
}

function toObject(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}
