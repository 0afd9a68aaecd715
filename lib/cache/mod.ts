/**
 * The response cache as the API uses it: cacheKey() names an answer and cached() serves it
 * (HIT, MISS, BYPASS, STALE; one computation per key at a time in this process; target-side
 * errors remembered for a minute). MIN_TTL_MS and MAX_TTL_MS bound the ttl; parseParams reads the values.
 */
export {
  cached,
  type CachedOptions,
  type CachedResult,
  type CacheStatus,
  callersOwn,
  waiting,
} from "./cached.ts";
export type { Entry } from "./entry.ts";
export { cacheKey, isCredentialHeader } from "./key.ts";
export { DEFAULT_TTL_MS } from "./ttl.ts";
