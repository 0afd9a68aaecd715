/**
 * The browser pool's ways out: the guarded egress proxy every visit's traffic goes through
 * (started on first need), and the egress proxies of requests that name `proxy=`.
 */
import type { Config } from "../config/mod.ts";
import type { Fetcher } from "../fetch/types.ts";
import type { ProxySpec } from "../fetch/proxy_client.ts";
import { type EgressProxy, startProxy } from "./proxy_server.ts";
import { UpstreamProxies } from "./upstream.ts";
import type { Upstream } from "./types.ts";

export class Egress implements AsyncDisposable {
  readonly #fetcher: Fetcher;
  readonly #dialTimeoutMs: number;
  readonly #upstreams: UpstreamProxies;
  #proxy: EgressProxy | null = null;

  constructor(options: { fetcher: Fetcher; config: Config }) {
    this.#fetcher = options.fetcher;
    this.#dialTimeoutMs = options.config.fetchTimeoutMs;
    this.#upstreams = new UpstreamProxies(options);
  }

  /** The guarded egress proxy if it was started (and not closed yet). */
  get started(): EgressProxy | null {
    return this.#proxy;
  }

  /** The guarded egress proxy, started once. */
  async proxy(): Promise<EgressProxy> {
    if (this.#proxy) return this.#proxy;
    this.#proxy = await startProxy({ fetcher: this.#fetcher, dialTimeoutMs: this.#dialTimeoutMs });
    // The proxy is linkpeek's own port: the guard must never let a page reach it.
    this.#fetcher.ownPorts.add(this.#proxy.port);
    return this.#proxy;
  }

  /** An egress proxy dialling through `spec` (shared, closed once idle). */
  upstream(spec: ProxySpec): Promise<Upstream> {
    return this.#upstreams.acquire(spec);
  }

  async close(): Promise<void> {
    await this.#proxy?.close();
    this.#proxy = null;
    await this.#upstreams.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
