/**
 * The browser pool: one long-lived Chromium launched lazily behind the egress proxy, a fresh
 * incognito context per visit, a bounded number of pages at once and a bounded queue.
 */
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import type { BrowserOptions, BrowserStats, Upstream, VisitOptions, VisitResult } from "./types.ts";
import type { ProxySpec } from "../fetch/proxy_client.ts";
import { Deadline } from "../util/deadline.ts";
import { httpUrl } from "../util/target_url.ts";
import { runVisit } from "./visit.ts";
import { openProxiedContext } from "./upstream.ts";
import { PhaseClock } from "./visit_timings.ts";
import { AdmissionPool } from "../util/admission.ts";
import { Chromium, closedError } from "./chromium.ts";
import { Egress } from "./egress.ts";

export type * from "./types.ts";
export { DEVICES, findDevice } from "./devices.ts";
export { parseBackground } from "./background.ts";

export class BrowserPool implements AsyncDisposable {
  /** Admission of visits: pages open at once, visits waiting for one. */
  readonly admission: AdmissionPool;
  readonly #options: BrowserOptions;
  readonly #maxPages: number;
  readonly #maxQueue: number;
  readonly #egress: Egress;
  readonly #chromium: Chromium;
  /** Contexts of finished visits still being disposed of. */
  readonly #closings = new Set<Promise<void>>();

  constructor(options: BrowserOptions) {
    const { config } = options;
    this.#options = options;
    this.#maxPages = options.maxPages ?? config.browserPages;
    this.#maxQueue = options.maxQueue ?? config.browserQueue;
    // A page's place is held until its context is gone.
    this.admission = new AdmissionPool({
      running: this.#maxPages,
      waiting: this.#maxQueue,
      busyMessage: (s) =>
        `The browser is saturated (${s.maxRunning} pages open, ${s.waiting} waiting); retry later.`,
      closedError,
    });
    this.#egress = new Egress(options);
    this.#chromium = new Chromium({
      chromiumPath: config.chromiumPath,
      egressPort: async () => (await this.#egress.proxy()).port,
      pageMemoryBytes: config.browserPageMemoryMb * 2 ** 20,
      busy: () => this.admission.state().running > 0,
    });
  }

  /** One page load serving any of: screenshot, pdf, rendered html (prerender). */
  async visit(url: string, visitOptions: VisitOptions = {}): Promise<VisitResult> {
    if (!httpUrl(url)) {
      throw new ApiError("EINVALURL", `The URL \`${url}\` is not a valid URL.`);
    }
    const ms = visitOptions.timeoutMs ?? this.#options.config.requestTimeoutMs;
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
      const current = await deadline.run(this.#chromium.get());
      clock.lap("launch");
      const upstream = visitOptions.proxy
        ? await deadline.run(this.#egress.upstream(visitOptions.proxy))
        : null;
      const outcome = await runVisit({
        open: () =>
          upstream
            ? openProxiedContext(current.browser, upstream.egress.port)
            : current.spares.take(),
        // Started before Chromium was launched.
        proxy: upstream?.egress ?? this.#egress.started!,
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
        if (!closed && this.#chromium.running === current) {
          // The page could not even be closed: replace the browser rather than leak it.
          log.warn("browser context would not close; restarting browser", {});
          this.#chromium.discard(current);
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

  /** The guarded egress proxy's port (started if needed), for a browser of a tool's own. */
  async egressPort(): Promise<number> {
    return (await this.#egress.proxy()).port;
  }

  /** A guarded egress proxy dialling through `proxy` (shared, closed once idle). */
  upstream(proxy: ProxySpec): Promise<Upstream> {
    return this.#egress.upstream(proxy);
  }

  /** True when the binary is present and Chromium launches (launches it if needed). */
  async ready(): Promise<boolean> {
    try {
      await this.#chromium.get();
      return true;
    } catch {
      return false;
    }
  }

  /** Resolves once every finished visit's context is disposed of and no spare is opening. */
  async settled(): Promise<void> {
    await this.#disposed();
    // Each lease taken starts a new spare: counting contexts is exact once it is open.
    await this.#chromium.running?.spares.settled();
  }

  stats(): BrowserStats {
    const running = this.#chromium.running;
    const browser = running?.browser;
    const unused = browser?.defaultBrowserContext();
    return {
      inUse: this.admission.state().running,
      queued: this.admission.state().waiting,
      maxPages: this.#maxPages,
      maxQueue: this.#maxQueue,
      pid: browser?.process()?.pid ?? null,
      launches: this.#chromium.launches,
      // Every visit has its own context; the default one is never used.
      contexts: running
        ? running.browser.browserContexts().filter((c) => c !== unused && !running.spares.holds(c))
          .length
        : 0,
      pages: running
        ? running.browser.targets().filter((t) =>
          t.type() === "page" && t.browserContext() !== unused
        ).length
        : 0,
    };
  }

  async close(): Promise<void> {
    const drained = this.admission.close();
    await this.#chromium.endLaunches();
    await this.#disposed();
    await this.#chromium.close();
    await this.#egress.close();
    // Visits still running fail fast now that their browser is gone, and free their places.
    await drained;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Resolves once every finished visit's context is disposed of. */
  async #disposed(): Promise<void> {
    while (this.#closings.size) await Promise.all(this.#closings);
  }
}
