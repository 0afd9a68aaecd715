/**
 * The browser pool: one long-lived Chromium launched lazily behind the egress proxy, a fresh
 * incognito context per visit, a bounded number of pages at once and a bounded queue.
 */
import type { Browser } from "puppeteer-core";
import { ApiError } from "../util/errors.ts";
import { log, outsideRequest } from "../util/log.ts";
import type { BrowserOptions, BrowserPool, VisitOptions, VisitResult } from "./types.ts";
import { Deadline, settlesWithin } from "../util/deadline.ts";
import { httpUrl } from "../util/target_url.ts";
import { type EgressProxy, startProxy } from "./proxy_server.ts";
import { findChromium, launchChromium, removeDir } from "./launch.ts";
import { runVisit } from "./visit.ts";
import { SpareContexts } from "./spare.ts";
import { openProxiedContext, UpstreamProxies } from "./upstream.ts";
import { PhaseClock } from "./visit_timings.ts";
import { AdmissionPool } from "../util/admission.ts";
import { RendererMemoryWatch } from "./renderer_memory.ts";

export type * from "./types.ts";
export { DEVICES, findDevice } from "./devices.ts";
export { parseBackground } from "./background.ts";

interface Running {
  browser: Browser;
  spares: SpareContexts;
  memory: RendererMemoryWatch;
  userDataDir: string;
  userAgent: string;
}

export function createBrowser(options: BrowserOptions): BrowserPool {
  const { config, fetcher } = options;
  const maxPages = options.maxPages ?? config.browserPages;
  const maxQueue = options.maxQueue ?? config.browserQueue;
  let proxy: EgressProxy | null = null;
  let running: Running | null = null;
  let launching: Promise<Running> | null = null;
  let launches = 0;
  let closed = false;
  /** Contexts of finished visits still being disposed of. */
  const closings = new Set<Promise<void>>();
  /** Pages open at once and visits waiting for one; a page's place is held until it is gone. */
  const admission = new AdmissionPool({
    running: maxPages,
    waiting: maxQueue,
    busyMessage: (s) =>
      `The browser is saturated (${s.maxRunning} pages open, ${s.waiting} waiting); retry later.`,
    closedError: () => new ApiError("EBROWSER", "No browser available: the pool is closed."),
  });
  /** Egress proxies for visits of requests that name `proxy=`. */
  const upstreams = new UpstreamProxies({ fetcher, config });

  const startEgress = async (): Promise<EgressProxy> => {
    if (proxy) return proxy;
    proxy = await startProxy({ fetcher, dialTimeoutMs: config.fetchTimeoutMs });
    // The proxy is linkpeek's own port: the guard must never let a page reach it.
    fetcher.ownPorts.add(proxy.port);
    return proxy;
  };

  const launch = async (): Promise<Running> => {
    const executablePath = await findChromium(config.chromiumPath);
    const egress = await startEgress();
    const { browser, userDataDir } = await launchChromium({
      executablePath,
      proxyPort: egress.port,
    });
    launches++;
    const userAgent = (await browser.userAgent()).replace("HeadlessChrome", "Chrome");
    const current: Running = {
      browser,
      userDataDir,
      userAgent,
      spares: new SpareContexts(browser),
      memory: new RendererMemoryWatch(browser, {
        limitBytes: config.browserPageMemoryMb * 2 ** 20,
        busy: () => admission.state().running > 0,
      }),
    };
    browser.on("disconnected", () => {
      if (running === current) running = null;
      current.memory.stop();
      void current.spares.close();
      log.warn("browser disconnected", { pid: browser.process()?.pid ?? null });
      void removeDir(userDataDir);
    });
    log.info("browser launched", { pid: browser.process()?.pid ?? null, launches });
    return current;
  };

  /** The running browser, launching (once, shared) when there is none. */
  const getBrowser = async (): Promise<Running> => {
    if (closed) throw new ApiError("EBROWSER", "No browser available: the pool is closed.");
    if (running?.browser.connected) return running;
    if (!launching) {
      // Outside the waiting request: the browser and its proxy outlive it, and their later
      // log lines belong to no request.
      launching = outsideRequest(launch).then((r) => {
        if (closed) {
          void shutdown(r);
          throw new ApiError("EBROWSER", "No browser available: the pool is closed.");
        }
        return (running = r);
      }).finally(() => (launching = null));
    }
    return await launching;
  };

  const kill = (r: Running) => {
    try {
      r.browser.process()?.kill("SIGKILL");
    } catch {
      // already gone
    }
  };

  const shutdown = async (r: Running) => {
    r.memory.stop();
    await r.spares.close();
    if (!await settlesWithin(r.browser.close(), 5000)) kill(r);
    await removeDir(r.userDataDir);
  };

  const visit = async (url: string, visitOptions: VisitOptions = {}): Promise<VisitResult> => {
    if (!httpUrl(url)) {
      throw new ApiError("EINVALURL", `The URL \`${url}\` is not a valid URL.`);
    }
    const ms = visitOptions.timeoutMs ?? config.requestTimeoutMs;
    using deadline = new Deadline({
      timeoutMs: ms,
      signal: visitOptions.signal,
      error: () =>
        new ApiError("EBRWSRTIMEOUT", `The browser could not finish "${url}" within ${ms} ms.`),
    });
    const clock = new PhaseClock();
    const place = await admission.enter(deadline.signal);
    clock.lap("queue");
    let released = false;
    try {
      const current = await deadline.run(getBrowser());
      clock.lap("launch");
      const upstream = visitOptions.proxy
        ? await deadline.run(upstreams.acquire(visitOptions.proxy))
        : null;
      const outcome = await runVisit({
        open: () =>
          upstream
            ? openProxiedContext(current.browser, upstream.egress.port)
            : current.spares.take(),
        proxy: upstream?.egress ?? proxy!,
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
        options.onVisit?.(clock.timings);
        if (!closed && running === current) {
          // The page could not even be closed: replace the browser rather than leak it.
          log.warn("browser context would not close; restarting browser", {});
          running = null;
          void shutdown(current);
        } else {
          // The next visit's spare, opened now that this one no longer needs the CPU.
          current.spares.refill();
        }
      }).finally(() => {
        closings.delete(closing);
        upstream?.release();
        place.release();
      });
      closings.add(closing);
      if (!outcome.ok) throw outcome.error;
      return outcome.result;
    } finally {
      if (!released) place.release();
    }
  };

  const ready = async (): Promise<boolean> => {
    try {
      await getBrowser();
      return true;
    } catch {
      return false;
    }
  };

  const close = async () => {
    closed = true;
    const drained = admission.close();
    const pending = launching;
    if (pending) await pending.catch(() => {});
    while (closings.size) await Promise.all(closings);
    if (running) {
      const r = running;
      running = null;
      await shutdown(r);
    }
    await proxy?.close();
    proxy = null;
    await upstreams.close();
    // Visits still running fail fast now that their browser is gone, and free their places.
    await drained;
  };

  return {
    visit,
    egressPort: async () => (await startEgress()).port,
    upstream: (spec) => upstreams.acquire(spec),
    ready,
    settled: async () => {
      while (closings.size) await Promise.all(closings);
      // Each lease taken starts a new spare: counting contexts is exact once it is open.
      await running?.spares.settled();
    },
    admission,
    stats: () => ({
      inUse: admission.state().running,
      queued: admission.state().waiting,
      maxPages,
      maxQueue,
      pid: running?.browser.process()?.pid ?? null,
      launches,
      // Every visit has its own context; the default one is never used.
      contexts: running
        ? running.browser.browserContexts().filter((c) =>
          c !== running!.browser.defaultBrowserContext() && !running!.spares.holds(c)
        ).length
        : 0,
      pages: running
        ? running.browser.targets().filter((t) =>
          t.type() === "page" && t.browserContext() !== running!.browser.defaultBrowserContext()
        ).length
        : 0,
    }),
    close,
    [Symbol.asyncDispose]: close,
  };
}
