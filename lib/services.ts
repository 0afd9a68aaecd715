import type { Config } from "./config.ts";
import type { Fetcher } from "./fetch/types.ts";
import { createFetcher } from "./fetch/mod.ts";
import type { Store } from "./store/types.ts";
import { openStore } from "./store/mod.ts";
import type { BrowserPool } from "./browser/types.ts";
import { createBrowser } from "./browser/mod.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { DomWorkers } from "./extract/dom_workers.ts";

/** The long-lived parts one process shares between requests. */
export interface Services {
  config: Config;
  fetcher: Fetcher;
  store: Store;
  browser: BrowserPool;
  metrics: Metrics;
  /** Worker threads for custom rules and markdown (bounded; EBUSY when saturated). */
  dom: DomWorkers;
  close(): Promise<void>;
}

export async function createServices(config: Config): Promise<Services> {
  const fetcher = createFetcher({ config });
  const store = await openStore(config);
  const browser = createBrowser({ config, fetcher });
  const metrics = createMetrics();
  const dom = new DomWorkers({ jobTimeoutMs: config.requestTimeoutMs });
  return {
    config,
    fetcher,
    store,
    browser,
    metrics,
    dom,
    async close() {
      await dom.close();
      await browser.close();
      await store.close();
    },
  };
}
