import type { Redirect } from "../util/payload_types.ts";
import type { Socket } from "node:net";
import type { PinnedAddress } from "../guard/pin.ts";
import type { ConnectionPool } from "./pool.ts";

export interface ProxySpec {
  /** The proxy without its userinfo. */
  url: URL;
  /** `Basic …` from the URL's userinfo, or null. */
  authorization: string | null;
}

export interface FetchOptions {
  method?: "GET" | "HEAD";
  /** Sent on every hop (e.g. User-Agent, Range). */
  headers?: Record<string, string>;
  /**
   * The caller's `headers.*`: sent only while the hop's origin equals `headersOrigin`, dropped
   * from the first hop that leaves it on. `headers` win over them (a probe's Range stays).
   */
  originHeaders?: Record<string, string>;
  /**
   * The origin `originHeaders` belong to: the target's, for a follow-up fetch (favicon,
   * manifest, media probe) that may start elsewhere. Default: the first URL's origin.
   */
  headersOrigin?: string;
  /** Redirect hops followed; default 10. The 11th (or a loop) is EMAXREDIRECTS. */
  maxRedirects?: number;
  /** Whole-fetch deadline in ms; default config.fetchTimeoutMs. */
  timeoutMs?: number;
  /** Aborts the fetch (e.g. the request's own deadline). */
  signal?: AbortSignal;
  /** Bytes of decoded body read before the connection is closed; default config.maxBodyBytes. */
  maxBytes?: number;
  /** Through this proxy (see openTunnel); default EGRESS_PROXY, if set. */
  proxy?: ProxySpec | null;
  /** Retries after a connection error or a 5xx answer, with backoff (withRetries). */
  retries?: number;
}

export interface FetchResult {
  /** Final URL after redirects. */
  url: string;
  statusCode: number;
  /** Lower-cased response headers of the final hop (set-cookie included; callers strip it). */
  headers: Record<string, string>;
  /** Each hop that answered 3xx, in order. */
  redirects: Redirect[];
  /** Decoded (decompressed) body, at most maxBytes. Empty for HEAD. */
  body: Uint8Array;
  /** True when the body was cut at maxBytes. */
  truncated: boolean;
}

/**
 * The only way linkpeek reaches a target. Every hop: parse (EINVALURL), resolve, check every
 * address (EFORBIDDENURL), connect to exactly the checked address, deadlines (ETIMEOUT),
 * network failure (EFETCH). Errors are ApiErrors.
 */
export interface Fetcher {
  /**
   * Ports this process opened at run time (the browser's egress proxies): never a target,
   * like the configured `ownPorts`. Run-time state, so it lives here and not in the config.
   */
  readonly ownPorts: Set<number>;
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /**
   * Resolve + check + connect a raw TCP socket to host:port (for the browser's egress proxy).
   * Throws ApiError EFORBIDDENURL / EFETCH / ETIMEOUT.
   */
  dial(
    host: string,
    port: number,
    options?: { signal?: AbortSignal; proxy?: ProxySpec | null },
  ): Promise<Socket>;
}

/**
 * The caller's `headers.*` and the target's origin: a follow-up fetch (favicon, manifest, media
 * probe, oEmbed) sends them only to that origin, as the page fetch does.
 */
export interface TargetHeaders {
  origin: string;
  headers: Record<string, string>;
}

/** FetchOptions that send `target`'s headers on its origin only. */
export function targetHeaderOptions(
  target: TargetHeaders | undefined,
): Pick<FetchOptions, "originHeaders" | "headersOrigin"> {
  return target ? { originHeaders: target.headers, headersOrigin: target.origin } : {};
}

/** One hop (one request to one checked address), as sendHop and sendThroughTunnel take it. */
export interface HopRequest {
  url: URL;
  method: "GET" | "HEAD";
  headers: Record<string, string>;
  target: PinnedAddress;
  /** Aborted on the deadline; its reason is what the hop rejects with. */
  signal: AbortSignal;
  connectTimeoutMs: number;
  /** Extra trusted CA certificates (PEM), for intranets and tests. */
  ca?: string[];
  /** A tunnel to `target` through a proxy (openTunnel), already open: the hop goes over it. */
  tunnel?: Socket;
  /** Kept-alive connections of direct hops (never a tunnel's): absent, one per request. */
  pool?: ConnectionPool;
}

export interface HopResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Transfer codings (gzip, deflate) to undo in `message`, in the order applied. */
  transferCodings: string[];
  /** The body as it arrives (encoded as sent, chunks taken off), read as it is iterated. */
  message: AsyncIterable<Uint8Array>;
  /** Closes the connection at once (body no longer wanted). */
  destroy(): void;
}
