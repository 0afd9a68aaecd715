/**
 * A platform's endpoint (X's syndication JSON, Spotify's and Telegram's embed pages), fetched
 * through the guarded fetcher like every follow-up request, bounded by the request's deadline,
 * without the caller's headers, and read into field values for extract(). Answers go through
 * sharedFetch, so the early start beside the page fetch and the call after it cost one request.
 * Any failure yields null, never an error.
 */
import { decodeHtml } from "../../fetch/decode.ts";
import type { Fetcher } from "../../fetch/types.ts";
import { platformFor } from "./mod.ts";
import type { PlatformData } from "./platform.ts";
import { sharedFetch } from "./shared_fetch.ts";

/** Embed pages reach a few hundred KB; nothing an endpoint says needs more. */
export const MAX_ENDPOINT_BYTES = 2 * 1024 * 1024;

export interface EndpointOptions {
  fetcher: Fetcher;
  /** The request's deadline. */
  signal?: AbortSignal;
}

/** The endpoint URL for a page, or null when its platform has none for it. */
export function endpointFor(pageUrl: string): string | null {
  const platform = platformFor(pageUrl);
  return platform?.endpoint?.url(new URL(pageUrl)) ?? null;
}

async function load(pageUrl: string, endpoint: string, opts: EndpointOptions) {
  const spec = platformFor(pageUrl)!.endpoint!;
  if (opts.signal?.aborted) return null;
  try {
    const result = await opts.fetcher.fetch(endpoint, {
      headers: { accept: spec.accept },
      maxBytes: MAX_ENDPOINT_BYTES,
      signal: opts.signal,
    });
    if (result.statusCode < 200 || result.statusCode > 299 || result.truncated) return null;
    const body = decodeHtml(result.body, result.headers["content-type"] ?? null);
    return spec.read(body, new URL(pageUrl));
  } catch {
    return null;
  }
}

/**
 * What the platform endpoint of the page at `pageUrl` says, or null (no endpoint for this page,
 * a failed fetch, an answer of another shape).
 */
export function fetchPlatformData(
  pageUrl: string,
  opts: EndpointOptions,
): Promise<PlatformData | null> {
  let endpoint: string | null;
  try {
    endpoint = endpointFor(pageUrl);
  } catch {
    return Promise.resolve(null);
  }
  if (endpoint === null) return Promise.resolve(null);
  const url = endpoint;
  return sharedFetch(opts.fetcher, url, () => load(pageUrl, url, opts));
}
