/**
 * The guarded fetcher: the only way linkpeek reaches a target. Each hop is parsed, resolved,
 * checked and dialled at exactly the checked address; redirects are followed by hand.
 */
import type { Socket } from "node:net";
import { ApiError } from "../util/errors.ts";
import type { Redirect } from "../util/payload_types.ts";
import { type GuardConfig, pinHost } from "../guard/pin.ts";
import type { NetworkHooks } from "../guard/types.ts";
import type { RefusalStage } from "../guard/refusal.ts";
import { readBody } from "./body.ts";
import { Deadline } from "../util/deadline.ts";
import { dialChecked } from "./dial.ts";
import { toApiError } from "./failure.ts";
import { hopHeaders } from "./headers.ts";
import { ConnectError, type HopResponse, sendHop } from "./hop.ts";
import { ConnectionPool, type PoolLimits } from "./pool.ts";
import { handshakeBudget, openTunnel, type ProxySpec } from "./proxy_client.ts";
import { withRetries } from "./retry.ts";
import type { Fetcher, FetchOptions, FetchResult } from "./types.ts";
import { locationText } from "./location.ts";
import { parseTargetUrl, redact } from "../util/target_url.ts";
import { portOf } from "../util/http.ts";

export type { Fetcher, FetchOptions, FetchResult } from "./types.ts";
export type { NetworkHooks } from "../guard/types.ts";

/** What the fetcher reads of the service's settings (a Config is one). */
export interface FetcherSettings extends Pick<GuardConfig, "trustedTargets"> {
  /** Ports linkpeek listens on; the fetcher adds those it opens at run time. */
  ownPorts: readonly number[];
  /** Whole-fetch deadline when a fetch names none. */
  fetchTimeoutMs: number;
  /** Decoded body bytes read when a fetch names no limit. */
  maxBodyBytes: number;
  userAgent: string;
  /** EGRESS_PROXY: every connection through it unless a fetch names its own. */
  egressProxy: ProxySpec | null;
}

export interface FetcherOptions {
  config: FetcherSettings;
  /** The resolver and connector the guard uses; absent, the system's (tests map to loopback). */
  network?: NetworkHooks;
  /** Extra trusted CA certificates (PEM) for TLS targets; the system store is kept. */
  ca?: string[];
  /** How long one TCP connect may take; default min(5 s, the fetch deadline). */
  connectTimeoutMs?: number;
  /**
   * Keep direct hops' connections alive for the next request to the same address (the
   * service's fetcher does; see ConnectionPool); `close()` then ends the idle ones. Absent, one
   * connection per request, and nothing to close.
   */
  keepAlive?: boolean | Partial<PoolLimits>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The Fetcher every part of the service shares. Between fetches it holds at most its pool's idle
 * connections (with `keepAlive`), which `close()` ends.
 */
export class GuardedFetcher implements Fetcher {
  readonly ownPorts: Set<number> = new Set();
  readonly #settings: FetcherSettings;
  /** The guard's view of the settings: its own ports include those opened at run time. */
  readonly #guard: GuardConfig;
  readonly #ca: string[] | undefined;
  readonly #connectTimeoutMs: number | undefined;
  readonly #pool: ConnectionPool | undefined;

  constructor(options: FetcherOptions) {
    const settings = options.config;
    this.#settings = settings;
    this.#guard = {
      resolver: options.network?.resolver,
      connector: options.network?.connector,
      trustedTargets: settings.trustedTargets,
      ownPorts: {
        includes: (port: number) => settings.ownPorts.includes(port) || this.ownPorts.has(port),
      },
    };
    this.#ca = options.ca;
    this.#connectTimeoutMs = options.connectTimeoutMs;
    const { keepAlive } = options;
    if (keepAlive) this.#pool = new ConnectionPool(keepAlive === true ? {} : keepAlive);
  }

  /** Idle kept-alive connections now (0 without `keepAlive`). */
  get idleConnections(): number {
    return this.#pool?.size ?? 0;
  }

  /** Closes every idle connection; fetches still under way close theirs when they end. */
  close(): void {
    this.#pool?.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }

  fetch(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    if (!options.retries) return this.#fetchOnce(url, options);
    return withRetries((attempt) => this.#fetchOnce(url, attempt), {
      ...options,
      timeoutMs: options.timeoutMs ?? this.#settings.fetchTimeoutMs,
    });
  }

  dial(
    host: string,
    port: number,
    options?: { signal?: AbortSignal; proxy?: ProxySpec | null },
  ): Promise<Socket> {
    return dialChecked({ host, port }, {
      config: this.#guard,
      timeoutMs: this.#connectTimeoutMs ?? this.#settings.fetchTimeoutMs,
      signal: options?.signal,
      proxy: options?.proxy ?? this.#settings.egressProxy,
    });
  }

  /** One fetch: every redirect hop pinned and checked, under one deadline. */
  async #fetchOnce(input: string, opts: FetchOptions): Promise<FetchResult> {
    const settings = this.#settings;
    const timeoutMs = opts.timeoutMs ?? settings.fetchTimeoutMs;
    const maxBytes = opts.maxBytes ?? settings.maxBodyBytes;
    const maxRedirects = opts.maxRedirects ?? 10;
    const method = opts.method ?? "GET";
    const connectTimeoutMs = this.#connectTimeoutMs ?? Math.min(5_000, timeoutMs);
    let url = parseTargetUrl(input);
    const first = url;
    using limit = new Deadline({
      timeoutMs,
      error: () =>
        new ApiError("ETIMEOUT", `The URL "${redact(first)}" timed out after ${timeoutMs} ms.`),
      signal: opts.signal,
    });
    const redirects: Redirect[] = [];
    const seen = new Set<string>();
    let sameOrigin = true;
    let atHeadersOrigin = true;
    try {
      for (;;) {
        // Origin-bound headers stop at the first hop that leaves their origin and never come back.
        sameOrigin &&= url.origin === first.origin;
        atHeadersOrigin &&= url.origin === (opts.headersOrigin ?? first.origin);
        const headers = hopHeaders({
          userAgent: settings.userAgent,
          headers: opts.headers,
          originHeaders: atHeadersOrigin ? opts.originHeaders : undefined,
          userinfo: sameOrigin ? { username: url.username, password: url.password } : undefined,
        });
        seen.add(url.href);
        const response = await this.#hop(
          url,
          { method, headers, signal: limit.signal },
          { connectTimeoutMs, remainingMs: () => limit.remaining() },
          redirects.length > 0 ? "redirect" : "request",
          opts.proxy ?? settings.egressProxy,
        );
        const location = response.headers.location;
        if (REDIRECTS.has(response.statusCode) && location !== undefined) {
          response.destroy();
          redirects.push({ statusCode: response.statusCode, url: redact(url) });
          const next = parseTargetUrl(locationText(location), url);
          if (redirects.length > maxRedirects || seen.has(next.href)) {
            throw new ApiError(
              "EMAXREDIRECTS",
              `The URL "${redact(first)}" redirected more than ${maxRedirects} times or in a loop.`,
            );
          }
          url = next;
          continue;
        }
        // The deadline must also cut a body that is still arriving.
        const stop = () => response.destroy();
        limit.signal.addEventListener("abort", stop, { once: true });
        try {
          const { body, truncated } = method === "HEAD"
            ? { body: new Uint8Array(0), truncated: false }
            : await readBody(response.message, {
              contentEncoding: response.headers["content-encoding"],
              transferCodings: response.transferCodings,
              maxBytes,
            });
          return {
            url: redact(url),
            statusCode: response.statusCode,
            headers: response.headers,
            redirects,
            body,
            truncated,
          };
        } finally {
          limit.signal.removeEventListener("abort", stop);
          // The rest of the body is never read: close the connection rather than drain it.
          response.destroy();
        }
      }
    } catch (error) {
      const reason = limit.reason ?? error;
      throw toApiError(reason, `The URL "${redact(url)}"`);
    }
  }

  /** One request to `url`: resolved and checked, then tried at each checked address in turn. */
  async #hop(
    url: URL,
    init: { method: "GET" | "HEAD"; headers: Record<string, string>; signal: AbortSignal },
    limit: { connectTimeoutMs: number; remainingMs: () => number },
    stage: RefusalStage,
    proxy: ProxySpec | null,
  ): Promise<HopResponse> {
    const subject = `The URL "${redact(url)}"`;
    const targets = await pinHost({ host: url.hostname, port: portOf(url) }, {
      config: this.#guard,
      subject,
      signal: init.signal,
      stage,
    });
    const ca = this.#ca;
    let last: unknown = null;
    // Every address passed the check; try them in order while the TCP connect itself fails.
    for (const target of targets) {
      try {
        const { connectTimeoutMs } = limit;
        const tunnel = proxy
          ? await openTunnel(proxy, target, {
            config: this.#guard,
            ca,
            signal: init.signal,
            timeoutMs: Math.min(connectTimeoutMs, handshakeBudget(limit.remainingMs())),
          })
          : undefined;
        const pool = this.#pool;
        return await sendHop({ url, target, ...init, connectTimeoutMs, ca, tunnel, pool });
      } catch (error) {
        if (!(error instanceof ConnectError)) throw error;
        if (error.timedOut) throw new ApiError("ETIMEOUT", `${subject} timed out connecting.`);
        last = error.cause;
      }
    }
    throw last;
  }
}
