/** The bounds of `ttl` (the `ttl` and `staleTtl` parameters are read by lib/params). */
const DAY = 86_400_000;

export const MIN_TTL_MS = 60_000;
export const MAX_TTL_MS = 31 * DAY;
export const DEFAULT_TTL_MS = DAY;
