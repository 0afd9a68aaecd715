/**
 * Durations as Microlink takes them: milliseconds (`86400000`) or humanised (`90s`, `1h`,
 * `1day`, `2 hours`, `1.5h`). One parser for every duration parameter.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

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

/** Milliseconds for a duration, or null when the text is not one. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(text.trim().toLowerCase());
  if (!match) return null;
  const unit = match[2] === "" ? 1 : Object.hasOwn(UNITS, match[2]!) ? UNITS[match[2]!] : undefined;
  return unit === undefined ? null : Math.round(Number(match[1]) * unit);
}
