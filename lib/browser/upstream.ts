/**
 * A visit whose request names `proxy=` gets a browser context of its own whose proxy is an
 * egress proxy (startProxy) dialling through that upstream: the same guard, the same
 * denials, only the way out differs. One egress proxy per upstream, shared while in use, closed
 * once idle; upstream credentials stay in this process, never in Chromium's flags.
 */
import type { Browser } from "puppeteer-core";
import type { Config } from "../config/mod.ts";
import type { Fetcher } from "../fetch/types.ts";
import { type ProxySpec, viaProxy } from "../fetch/proxy_client.ts";
import { type EgressProxy, startProxy } from "./proxy_server.ts";
import type { Lease } from "./spare.ts";
import type { Upstream } from "./types.ts";
import { DEFAULT_VIEWPORT } from "./page_setup.ts";

/** An idle upstream's egress proxy is closed after this long. */
const IDLE_MS = 60_000;

interface Entry {
  egress: Promise<EgressProxy>;
  users: number;
  idle: ReturnType<typeof setTimeout> | undefined;
}

export type { Upstream } from "./types.ts";

export class UpstreamProxies implements AsyncDisposable {
  readonly #entries = new Map<string, Entry>();
  readonly #fetcher: Fetcher;
  readonly #config: Config;

  constructor(options: { fetcher: Fetcher; config: Config }) {
    this.#fetcher = options.fetcher;
    this.#config = options.config;
  }

  /** The egress proxy for `upstream`, started on first use. */
  async acquire(upstream: ProxySpec): Promise<Upstream> {
    const key = `${upstream.url.href} ${upstream.authorization ?? ""}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      const egress = startProxy({
        fetcher: viaProxy(this.#fetcher, upstream),
        dialTimeoutMs: this.#config.fetchTimeoutMs,
      }).then((started) => {
        // linkpeek's own port: never a target, whatever TRUSTED_TARGETS says.
        this.#fetcher.ownPorts.add(started.port);
        return started;
      });
      entry = { egress, users: 0, idle: undefined };
      this.#entries.set(key, entry);
      egress.catch(() => this.#entries.delete(key));
    }
    const held = entry;
    clearTimeout(held.idle);
    held.users++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      held.idle = setTimeout(() => {
        if (held.users > 0 || this.#entries.get(key) !== held) return;
        this.#entries.delete(key);
        void held.egress.then((egress) => {
          this.#fetcher.ownPorts.delete(egress.port);
          return egress.close();
        }).catch(() => {});
      }, IDLE_MS);
    };
    try {
      return { egress: await held.egress, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  async close(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) clearTimeout(entry.idle);
    await Promise.all(entries.map((e) => e.egress.then((p) => p.close()).catch(() => {})));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** A fresh context whose traffic goes to the egress proxy on `port` (loopback included). */
export async function openProxiedContext(browser: Browser, port: number): Promise<Lease> {
  const context = await browser.createBrowserContext({
    proxyServer: `http://127.0.0.1:${port}`,
    proxyBypassList: ["<-loopback>"],
  });
  try {
    const page = await context.newPage();
    await page.setViewport(DEFAULT_VIEWPORT);
    return { context, page, consent: null };
  } catch (error) {
    await context.close().catch(() => {});
    throw error;
  }
}
