import type { Config } from "../config/mod.ts";
import type { Fetcher } from "../fetch/types.ts";
import { GuardedFetcher, type NetworkHooks } from "../fetch/mod.ts";
import type { Store } from "../store/types.ts";
import { openStore } from "../store/mod.ts";
import { BrowserPool } from "../browser/mod.ts";
import type { VisitTimings } from "../browser/visit_timings.ts";
import { Metrics } from "../metrics/mod.ts";
import { DomWorkers } from "../extract/dom/workers.ts";
import { DocumentWorkers } from "../documents/workers.ts";
import { LighthouseRunner } from "../insights/lighthouse.ts";
import { createTechnologyDetector, type TechnologyDetector } from "../insights/technologies.ts";
import type { AdmissionPool } from "../util/admission.ts";
import { paletteAdmission } from "../media/palette_async.ts";
import { InFlight } from "../util/in_flight.ts";

/** What the service's admission pools admit. */
export type AdmittedWork =
  | "browserPages"
  | "domWorkers"
  | "documents"
  | "technologies"
  | "lighthouse"
  | "palettes";

/** The long-lived parts one process shares between requests. */
export interface Services {
  config: Config;
  fetcher: Fetcher;
  store: Store;
  browser: BrowserPool;
  metrics: Metrics;
  /** API requests being answered (a lone one does its page work on the main thread). */
  inFlight: InFlight;
  /** Worker threads for custom rules and markdown (bounded; EBUSY when saturated). */
  dom: DomWorkers;
  /** Worker threads converting document targets (PDF, Office, ODF, RTF, EPUB) to HTML. */
  documents: DocumentWorkers;
  /** `insights.lighthouse` runs, bounded by LIGHTHOUSE_RUNS. */
  lighthouse: LighthouseRunner;
  /** `insights.technologies` detection (Wappalyzer rules, in a Worker). */
  technologies: TechnologyDetector;
  /** Admission of palette decodes (best effort: a full pool means no palette). */
  palettes: AdmissionPool;
  /** Every admission pool by what it admits, for a look at their state. */
  admission: Readonly<Record<AdmittedWork, AdmissionPool>>;
  close(): Promise<void>;
}

/**
 * What a benchmark or test injects: the guard's network hooks (a loopback resolver and
 * connector) and observers. None in production.
 */
export interface ServiceHooks extends NetworkHooks {
  /** Called with each finished browser visit's phase times. */
  onVisit?: (timings: VisitTimings) => void;
}

export async function createServices(config: Config, hooks: ServiceHooks = {}): Promise<Services> {
  // Kept-alive connections: a page's images and icons are mostly on the page's own host.
  const fetcher = new GuardedFetcher({ config, network: hooks, keepAlive: true });
  const store = await openStore(config);
  const browser = new BrowserPool({ config, fetcher, onVisit: hooks.onVisit });
  const metrics = new Metrics();
  const inFlight = new InFlight();
  const dom = new DomWorkers({
    jobTimeoutMs: config.requestTimeoutMs,
    alone: config.domAloneSliceMs > 0
      ? { when: () => inFlight.count <= 1, sliceMs: config.domAloneSliceMs }
      : undefined,
  });
  const documents = new DocumentWorkers({ heapMb: config.documentHeapMb });
  const lighthouse = new LighthouseRunner({
    chromiumPath: config.chromiumPath,
    egress: async (proxy) => {
      if (!proxy) return { port: await browser.egressPort(), release: () => {} };
      const upstream = await browser.upstream(proxy);
      return { port: upstream.egress.port, release: upstream.release };
    },
    maxRuns: config.lighthouseRuns,
  });
  const technologies = createTechnologyDetector();
  const palettes = paletteAdmission();
  return {
    config,
    fetcher,
    store,
    browser,
    metrics,
    inFlight,
    dom,
    documents,
    lighthouse,
    technologies,
    palettes,
    admission: {
      browserPages: browser.admission,
      domWorkers: dom.admission,
      documents: documents.admission,
      technologies: technologies.admission,
      lighthouse: lighthouse.admission,
      palettes,
    },
    async close() {
      technologies.close();
      await palettes.close();
      await lighthouse.close();
      await dom.close();
      await documents.close();
      await browser.close();
      await store.close();
      await metrics.close();
      fetcher.close();
    },
  };
}
