/**
 * The browser pool: one long-lived Chromium launched lazily behind the egress proxy, a fresh
 * incognito context per visit, a bounded number of pages at once and a bounded queue.
 */
import type { Browser } from "puppeteer-core";
import { ApiError } from "../util/errors.ts";
import { log, outsideRequest } from "../util/log.ts";
import type {
  BrowserOptions,
  BrowserPool,
  BrowserStats,
  VisitOptions,
  VisitResult,
} from "./types.ts";
import { Deadline, settlesWithin } from "../util/deadline.ts";
import { httpUrl } from "../util/target_url.ts";
import { type EgressProxy, startProxy } from "./proxy_server.ts";
import { findChromium, launchChromium, removeDir } from "./launch.ts";
import { runVisit } from "./visit.ts";
import { SpareContexts } from "./spare.ts";
import { openProxiedContext, UpstreamProxies } from "./upstream.ts";
import { PhaseClock } from "./visit_timings.ts";
import { AdmissionPool } from "../util/admission.ts";

export type * from "./types.ts";
export { DEVICES, findDevice } from "./devices.ts";
export { parseBackground } from "./background.ts";

interface Running {
  browser: Browser;
  spares: SpareContexts;
  userDataDir: string;
  userAgent: string;
}

/** The pool of visits on one lazily launched Chromium (see BrowserPool). */
export function createBrowser(options: BrowserOptions): BrowserPool {
  return new ChromiumPool(options);
}

class ChromiumPool implements BrowserPool {
  /** Pages open at once and visits waiting for one; a page's place is held until it is gone. */
  readonly admission: AdmissionPool;
  readonly #options: BrowserOptions;
  readonly #config: BrowserOptions["config"];
  readonly #fetcher: BrowserOptions["fetcher"];
  readonly #maxPages: number;
  readonly #maxQueue: number;
  /** Egress proxies for visits of requests that name `proxy=`. */
  readonly #upstreams: UpstreamProxies;
  /** Contexts of finished visits still being disposed of. */
  readonly #closings = new Set<Promise<void>>();
  #proxy: EgressProxy | null = null;
  #running: Running | null = null;
  #launching: Promise<Running> | null = null;
  #launches = 0;
  #closed = false;

  constructor(options: BrowserOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#fetcher = options.fetcher;
    this.#maxPages = options.maxPages ?? this.#config.browserPages;
    this.#maxQueue = options.maxQueue ?? this.#config.browserQueue;
    this.admission = new AdmissionPool({
      running: this.#maxPages,
      waiting: this.#maxQueue,
      busyMessage: (s) =>
        `The browser is saturated (${s.maxRunning} pages open, ${s.waiting} waiting); retry later.`,
      closedError: () => new ApiError("EBROWSER", "No browser available: the pool is closed."),
    });
    this.#upstreams = new UpstreamProxies({ fetcher: this.#fetcher, config: this.#config });
  }

  async #startEgress(): Promise<EgressProxy> {
    if (this.#proxy) return this.#proxy;
    const proxy = this.#proxy = await startProxy({
      fetcher: this.#fetcher,
      dialTimeoutMs: this.#config.fetchTimeoutMs,
    });
    // The proxy is linkpeek's own port: the guard must never let a page reach it.
    this.#fetcher.ownPorts.add(proxy.port);
    return proxy;
  }

  async #launch(): Promise<Running> {
    const executablePath = await findChromium(this.#config.chromiumPath);
    const egress = await this.#startEgress();
    const { browser, userDataDir } = await launchChromium({
      executablePath,
      proxyPort: egress.port,
    });
    this.#launches++;
    const userAgent = (await browser.userAgent()).replace("HeadlessChrome", "Chrome");
    const current: Running = {
      browser,
      userDataDir,
      userAgent,
      spares: new SpareContexts(browser),
    };
    browser.on("disconnected", () => {
      if (this.#running === current) this.#running = null;
      void current.spares.close();
      log.warn("browser disconnected", { pid: browser.process()?.pid ?? null });
      void removeDir(userDataDir);
    });
    log.info("browser launched", {
      pid: browser.process()?.pid ?? null,
      launches: this.#launches,
    });
    return current;
  }

  /** The running browser, launching (once, shared) when there is none. */
  async #browser(): Promise<Running> {
    if (this.#closed) throw new ApiError("EBROWSER", "No browser available: the pool is closed.");
    if (this.#running?.browser.connected) return this.#running;
    if (!this.#launching) {
      // Outside the waiting request: the browser and its proxy outlive it, and their later
      // log lines belong to no request.
      this.#launching = outsideRequest(() => this.#launch()).then((r) => {
        if (this.#closed) {
          void shutdown(r);
          throw new ApiError("EBROWSER", "No browser available: the pool is closed.");
        }
        return (this.#running = r);
      }).finally(() => (this.#launching = null));
    }
    return await this.#launching;
  }

  async visit(url: string, visitOptions: VisitOptions = {}): Promise<VisitResult> {
    if (!httpUrl(url)) {
      throw new ApiError("EINVALURL", `The URL \`${url}\` is not a valid URL.`);
    }
    const ms = visitOptions.timeoutMs ?? this.#config.requestTimeoutMs;
    using deadline = new Deadline({
      timeoutMs: ms,
      signal: visitOptions.signal,
      error: () =>
        new ApiError("EBRWSRTIMEOUT", `The browser could not finish "${url}" within ${ms} ms.`),
    });
    const clock = new PhaseClock();
    const place = await this.admission.enter(deadline.signal);
    clock.lap("queue");
    let released = false;
    try {
      const current = await deadline.run(this.#browser());
      clock.lap("launch");
      const upstream = visitOptions.proxy
        ? await deadline.run(this.#upstreams.acquire(visitOptions.proxy))
        : null;
      const outcome = await runVisit({
        open: () =>
          upstream
            ? openProxiedContext(current.browser, upstream.egress.port)
            : current.spares.take(),
        proxy: upstream?.egress ?? this.#proxy!,
        url,
        options: visitOptions,
        deadline,
        defaultUserAgent: current.userAgent,
        clock,
      });
      // The page slot is held until the context is really gone, but the caller has its
      // answer without waiting for that.
      released = true;
      const closing = outcome.closed.then((closed) => {
        clock.lap("close");
        this.#options.onVisit?.(clock.timings);
        if (!closed && this.#running === current) {
          // The page could not even be closed: replace the browser rather than leak it.
          log.warn("browser context would not close; restarting browser", {});
          this.#running = null;
          void shutdown(current);
        } else {
          // The next visit's spare, opened now that this one no longer needs the CPU.
          current.spares.refill();
        }
      }).finally(() => {
        this.#closings.delete(closing);
        upstream?.release();
        place.release();
      });
      this.#closings.add(closing);
      if (!outcome.ok) throw outcome.error;
      return outcome.result;
    } finally {
      if (!released) place.release();
    }
  }

  async egressPort(): Promise<number> {
    return (await this.#startEgress()).port;
  }

  async ready(): Promise<boolean> {
    try {
      await this.#browser();
      return true;
    } catch {
      return false;
    }
  }

  async settled(): Promise<void> {
    while (this.#closings.size) await Promise.all(this.#closings);
    // Each lease taken starts a new spare: counting contexts is exact once it is open.
    await this.#running?.spares.settled();
  }

  stats(): BrowserStats {
    const running = this.#running;
    const { running: inUse, waiting } = this.admission.state();
    return {
      inUse,
      queued: waiting,
      maxPages: this.#maxPages,
      maxQueue: this.#maxQueue,
      pid: running?.browser.process()?.pid ?? null,
      launches: this.#launches,
      // Every visit has its own context; the default one is never used.
      contexts: running
        ? running.browser.browserContexts().filter((c) =>
          c !== running.browser.defaultBrowserContext() && !running.spares.holds(c)
        ).length
        : 0,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const drained = this.admission.close();
    const pending = this.#launching;
    if (pending) await pending.catch(() => {});
    while (this.#closings.size) await Promise.all(this.#closings);
    if (this.#running) {
      const r = this.#running;
      this.#running = null;
      await shutdown(r);
    }
    await this.#proxy?.close();
    this.#proxy = null;
    await this.#upstreams.close();
    // Visits still running fail fast now that their browser is gone, and free their places.
    await drained;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function kill(r: Running): void {
  try {
    r.browser.process()?.kill("SIGKILL");
  } catch {
    // already gone
  }
}

async function shutdown(r: Running): Promise<void> {
  await r.spares.close();
  if (!await settlesWithin(r.browser.close(), 5000)) kill(r);
  await removeDir(r.userDataDir);
}
