/**
 * `ttl` and `staleTtl` as Microlink takes them: milliseconds (`86400000`) or humanised
 * (`90s`, `1h`, `1day`, `2 hours`), plus the aliases `min` (1 minute) and `max` (31 days).
 */
import { ApiError } from "../errors.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const MIN_TTL_MS = MINUTE;
export const MAX_TTL_MS = 31 * DAY;
export const DEFAULT_TTL_MS = DAY;

const UNITS: Record<string, number> = {
  ms: 1,
  s: SECOND,
  sec: SECOND,
  secs: SECOND,
  second: SECOND,
  seconds: SECOND,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  d: DAY,
  day: DAY,
  days: DAY,
  w: 7 * DAY,
  week: 7 * DAY,
  weeks: 7 * DAY,
};

/** Milliseconds for a humanised duration, or null when it is not one. */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (value === "min") return MIN_TTL_MS;
  if (value === "max") return MAX_TTL_MS;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(value);
  if (!match) return null;
  const unit = match[2] === "" ? 1 : UNITS[match[2]!];
  return unit === undefined ? null : Math.round(Number(match[1]) * unit);
}

function invalid(name: string, value: string, why: string): ApiError {
  return new ApiError("EINVALQUERY", `The \`${name}\` value \`${value}\` is not valid: ${why}.`);
}

/** `ttl`: absent -> 24 h; otherwise 1 minute .. 31 days, EINVALQUERY naming it. */
export function parseTtl(value: string | null | undefined, name = "ttl"): number {
  if (value === null || value === undefined || value === "") return DEFAULT_TTL_MS;
  const ms = parseDuration(value);
  if (ms === null) throw invalid(name, value, "use milliseconds or a duration like 1d, 2h, 90s");
  if (ms < MIN_TTL_MS || ms > MAX_TTL_MS) throw invalid(name, value, "use 1 minute to 31 days");
  return ms;
}

/**
 * `staleTtl`: absent or `false` -> null (no stale serving); `0` or `true` -> always serve the
 * cached copy and refresh it in the background; otherwise up to `ttl`.
 */
export function parseStaleTtl(
  value: string | null | undefined,
  options: { ttlMs: number; name?: string },
): number | null {
  const name = options.name ?? "staleTtl";
  if (value === null || value === undefined || value === "false") return null;
  if (value === "" || value === "true") return 0;
  const ms = parseDuration(value);
  if (ms === null) throw invalid(name, value, "use milliseconds or a duration like 1h, 90s");
  if (ms > options.ttlMs) throw invalid(name, value, "it can't be higher than ttl");
  return ms;
}
