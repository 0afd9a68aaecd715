/**
 * Microlink's `x-api-header-<name>` request headers: the way to pass a cookie or a token for a
 * private page without putting it in a URL (where logs, caches and browser histories keep it).
 * Each one is read exactly as the query's `headers.<name>` would be (same checks, sent to the
 * target's origin only, an HMAC in the cache key, a private answer), never written in a URL the
 * service shows or logs.
 */
import { ApiError } from "../util/errors.ts";
import { MAX_CALLER_HEADERS } from "../params/schema.ts";

export const API_HEADER_PREFIX = "x-api-header-";
/** The query's limit, checked here too so that a flood of them is not read into the query. */
const MAX_API_HEADERS = MAX_CALLER_HEADERS;

/** The request's `x-api-header-*` headers as (name, value) pairs, prefix removed. */
export function apiHeaders(request: Request): [string, string][] {
  const found: [string, string][] = [];
  for (const [name, value] of request.headers) {
    if (!name.startsWith(API_HEADER_PREFIX) || name.length === API_HEADER_PREFIX.length) continue;
    if (found.length === MAX_API_HEADERS) {
      throw new ApiError(
        "EINVALQUERY",
        `At most ${MAX_API_HEADERS} \`${API_HEADER_PREFIX}*\` headers are read.`,
      );
    }
    found.push([name.slice(API_HEADER_PREFIX.length), value]);
  }
  return found;
}

/**
 * The query the API reads: `url`'s own, plus `headers.<name>` for each `x-api-header-<name>`
 * (a request header wins over the same name in the query). `url` itself when there are none.
 */
export function withApiHeaders(url: URL, request: Request): URL {
  const extra = apiHeaders(request);
  if (!extra.length) return url;
  const merged = new URL(url);
  for (const [name, value] of extra) {
    for (const key of [...merged.searchParams.keys()]) {
      if (key.toLowerCase() === `headers.${name}`) merged.searchParams.delete(key);
    }
    merged.searchParams.append(`headers.${name}`, value);
  }
  return merged;
}
