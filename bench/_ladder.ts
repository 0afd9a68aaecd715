/**
 * The floor under linkpeek's screenshots: raw puppeteer captures of the same page, each rung
 * adding one of the properties linkpeek keeps by design to the rung before it, so that
 * bench:screenshot can tell what those properties cost from what linkpeek's own code costs.
 *
 *   a. a page in the browser's default context (shared cache and sockets across shots)
 *   b. + a fresh incognito context per shot
 *   c. + request interception that continues every request (CDP round trip per request)
 *   d. + all traffic through the guarded egress proxy (lib/browser/proxy_server.ts, one upstream
 *      connection per request), set on the context as `proxy=` visits do
 *   e. + adblock: the engine's verdict per request, autoconsent's bundle per document, its
 *      settling and ad-slot hiding before the capture (linkpeek's own lib/browser/adblock)
 */
import type { Browser, BrowserContext, Page, Viewport } from "puppeteer-core";
import type { Config } from "../lib/config/mod.ts";
import { type Fetcher, GuardedFetcher } from "../lib/fetch/mod.ts";
import type { NetworkHooks } from "../lib/guard/types.ts";
import { type EgressProxy, startProxy } from "../lib/browser/proxy_server.ts";
import { type Adblock, startAdblock } from "../lib/browser/adblock/mod.ts";

export interface Rung {
  name: string;
  shot: () => Promise<number>;
}

const noop = () => {};

/** The rungs over `browser`, capturing `url` at `viewport`; close() stops the proxy. */
export async function ladder(
  browser: Browser,
  options: { url: string; viewport: Viewport; config: Config; network?: NetworkHooks },
): Promise<{ rungs: Rung[]; close: () => Promise<void> }> {
  const fetcher = new GuardedFetcher({ config: options.config, network: options.network });
  let dials = 0;
  const counted: Fetcher = {
    ownPorts: fetcher.ownPorts,
    fetch: (url, fetchOptions) => fetcher.fetch(url, fetchOptions),
    dial: (...args) => {
      dials++;
      return fetcher.dial(...args);
    },
  };
  const egress: EgressProxy = await startProxy({ fetcher: counted });
  fetcher.ownPorts.add(egress.port);

  interface Step {
    context: "default" | "fresh" | "proxied";
    intercept: boolean;
    adblock: boolean;
  }
  const shot = (step: Step) => async () => {
    const context: BrowserContext = step.context === "default"
      ? browser.defaultBrowserContext()
      : await browser.createBrowserContext(
        step.context === "proxied"
          ? {
            proxyServer: `http://127.0.0.1:${egress.port}`,
            proxyBypassList: ["<-loopback>"],
          }
          : {},
      );
    const page: Page = await context.newPage();
    try {
      await page.setViewport(options.viewport);
      let adblock: Adblock | null = null;
      if (step.adblock) {
        adblock = await startAdblock(page, { javascript: true, consent: null });
      }
      if (step.intercept) {
        await page.setRequestInterception(true);
        page.on("request", (request) => {
          if (adblock?.intercept(request)) return;
          request.continue().catch(noop);
        });
      }
      const dialled = dials;
      await page.goto(options.url, { waitUntil: "load" });
      // A rung that claims the proxy must really have gone through it.
      if (step.context === "proxied" && dials === dialled) {
        throw new Error("the page's requests did not go through the egress proxy");
      }
      await adblock?.tidy(2000);
      return (await page.screenshot({ type: "png" })).length;
    } finally {
      if (step.context === "default") await page.close();
      else await context.close();
    }
  };
  const rungs: Rung[] = [
    {
      name: "a raw (default context)",
      shot: shot({ context: "default", intercept: false, adblock: false }),
    },
    {
      name: "b + fresh context",
      shot: shot({ context: "fresh", intercept: false, adblock: false }),
    },
    {
      name: "c + interception",
      shot: shot({ context: "fresh", intercept: true, adblock: false }),
    },
    {
      name: "d + egress proxy",
      shot: shot({ context: "proxied", intercept: true, adblock: false }),
    },
    {
      name: "e + adblock",
      shot: shot({ context: "proxied", intercept: true, adblock: true }),
    },
  ];
  return { rungs, close: () => egress.close() };
}
