/** Human-readable sizes and durations, formatted like npm pretty-bytes and pretty-ms. */

const UNITS = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];

/** SI units, 3 significant digits: 48213 -> "48.2 kB", 999 -> "999 B", 1500000 -> "1.5 MB". */
export function prettyBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? "-" : "";
  let value = Math.abs(n);
  if (value < 1000) return `${sign}${Number(value.toPrecision(3))} B`;
  let unit = Math.min(Math.floor(Math.log10(value) / 3), UNITS.length - 1);
  value = Number((value / 1000 ** unit).toPrecision(3));
  // Rounding can carry into the next unit (999999 -> 1000 kB): say 1 MB instead.
  if (value >= 1000 && unit < UNITS.length - 1) {
    unit++;
    value = Number((value / 1000).toPrecision(3));
  }
  return `${sign}${value} ${UNITS[unit]}`;
}

/** Seconds floored to one decimal, the way pretty-ms shows them ("23.4", "4"). */
function secondsText(seconds: number): string {
  const floored = Math.floor(seconds * 10 + 1e-7) / 10;
  return floored.toFixed(1).replace(/\.0$/, "");
}

/**
 * Duration in seconds -> "1m 23.4s", "2h 3m 4s", "12.3s", "500ms" (pretty-ms style: zero
 * parts are left out).
 */
export function prettyDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  const sign = seconds < 0 ? "-" : "";
  const total = Math.abs(seconds);
  if (total < 1) return `${sign}${Math.round(total * 1000)}ms`;
  const whole = Math.trunc(total);
  const parts: string[] = [];
  const years = Math.trunc(whole / 31_536_000);
  const days = Math.trunc(whole / 86_400) % 365;
  const hours = Math.trunc(whole / 3600) % 24;
  const minutes = Math.trunc(whole / 60) % 60;
  if (years) parts.push(`${years}y`);
  if (days) parts.push(`${days}d`);
  if (hours) parts.push(`${hours}h`);
  if (minutes) parts.push(`${minutes}m`);
  const secs = secondsText(total % 60);
  if (secs !== "0") parts.push(`${secs}s`);
  return sign + parts.join(" ");
}
