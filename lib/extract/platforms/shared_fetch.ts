/**
 * The cache every platform follow-up fetch shares (endpoints, caption tracks): answers kept per
 * fetcher for a few minutes, a fetch in flight shared, failures (null) not remembered so the next
 * request tries again. Keyed by the URL fetched; bounded in entries.
 */
import type { Fetcher } from "../../fetch/types.ts";
import { BoundedMap } from "../../util/bounded_map.ts";

const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 500;

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

const caches = new WeakMap<Fetcher, BoundedMap<string, Entry>>();

function cacheOf(fetcher: Fetcher): BoundedMap<string, Entry> {
  let cache = caches.get(fetcher);
  if (!cache) caches.set(fetcher, cache = new BoundedMap(MAX_ENTRIES));
  return cache;
}

/** `load()`'s answer for `key`, from the cache when a fresh one (or one in flight) is there. */
export function sharedFetch<T>(
  fetcher: Fetcher,
  key: string,
  load: () => Promise<T | null>,
): Promise<T | null> {
  const cache = cacheOf(fetcher);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T | null>;
  cache.delete(key);
  const value: Promise<T | null> = load().catch(() => null).then((answer) => {
    if (answer === null && cache.peek(key)?.value === value) cache.delete(key);
    return answer;
  });
  cache.set(key, { expires: now + TTL_MS, value });
  return value;
}
