/** The response cache: keys, ttl parsing, and the cached() wrapper with single-flight. */
export {
  CACHEABLE_ERRORS,
  cached,
  type CachedOptions,
  type CachedResult,
  type CacheStatus,
  ERROR_TTL_MS,
} from "./cached.ts";
export type { Entry } from "./entry.ts";
export { type CacheKey, cacheKey, isCredentialHeader } from "./key.ts";
export { DEFAULT_TTL_MS, MAX_TTL_MS, MIN_TTL_MS } from "./ttl.ts";
