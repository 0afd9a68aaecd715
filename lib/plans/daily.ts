/** The daily window: one UTC day, reset at 00:00 UTC; and the rate-limit headers it yields. */

const DAY_MS = 86_400_000;

export interface DailyWindow {
  /** `YYYY-MM-DD` of the current UTC day: part of every counter key. */
  day: string;
  /** Epoch ms of the next 00:00 UTC. */
  resetAt: number;
}

let current: DailyWindow = { day: "", resetAt: 0 };

export function dailyWindow(now: number): DailyWindow {
  const start = Math.floor(now / DAY_MS) * DAY_MS;
  // Every request of a day shares one window: build it once per day, not per request.
  if (current.resetAt !== start + DAY_MS) {
    current = { day: new Date(start).toISOString().slice(0, 10), resetAt: start + DAY_MS };
  }
  return current;
}

/** Seconds until the window resets, at least 1. */
export function secondsToReset(window: DailyWindow, now: number): number {
  return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
}

/** x-rate-limit-* and the IETF RateLimit / RateLimit-Policy headers (draft 09). */
export function rateLimitHeaders(options: {
  limit: number;
  used: number;
  window: DailyWindow;
  now: number;
}): Record<string, string> {
  const remaining = Math.max(0, options.limit - options.used);
  const seconds = secondsToReset(options.window, options.now);
  return {
    "x-rate-limit-limit": String(options.limit),
    "x-rate-limit-remaining": String(remaining),
    "x-rate-limit-reset": String(Math.floor(options.window.resetAt / 1000)),
    "ratelimit-policy": `"daily";q=${options.limit};w=86400`,
    "ratelimit": `"daily";r=${remaining};t=${seconds}`,
  };
}
