import type { Config } from "../config/mod.ts";
import type { Fetcher } from "../fetch/types.ts";
import { createFetcher } from "../fetch/mod.ts";
import type { Store } from "../store/types.ts";
import { openStore } from "../store/mod.ts";
import type { BrowserPool } from "../browser/types.ts";
import { createBrowser } from "../browser/mod.ts";
import { createMetrics, type Metrics } from "../metrics/mod.ts";
import { DomWorkers } from "../extract/dom/workers.ts";
import { DocumentWorkers } from "../documents/workers.ts";
import { createLighthouse, type LighthouseRunner } from "../insights/lighthouse.ts";
import { createTechnologyDetector, type TechnologyDetector } from "../insights/technologies.ts";
import { BoundedMap } from "../util/bounded_map.ts";
import type { Plan } from "../api/respond.ts";
import type { Prepared } from "../api/prepare.ts";
import { Templates } from "../api/templates.ts";
import type { AdmissionPool } from "../util/admission.ts";
import { paletteAdmission } from "../media/palette_async.ts";

/** What the service's admission pools admit. */
export type AdmittedWork =
  | "browserPages"
  | "domWorkers"
  | "documents"
  | "technologies"
  | "lighthouse"
  | "palettes";

/** What the process remembers between requests, each table bounded (client-chosen keys). */
export interface Memo {
  /** Plan by Host header: a service answers under a few host names. */
  plans: BoundedMap<string, Plan>;
  /** Checked queries by their query string (lib/api/prepare.ts). */
  prepared: BoundedMap<string, Prepared>;
  /** Answers cloned from templates (lib/api/templates.ts). */
  templates: Templates;
}

export function createMemo(): Memo {
  return { plans: new BoundedMap(256), prepared: new BoundedMap(1000), templates: new Templates() };
}

/** The long-lived parts one process shares between requests. */
export interface Services {
  config: Config;
  fetcher: Fetcher;
  store: Store;
  browser: BrowserPool;
  metrics: Metrics;
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
  memo: Memo;
  close(): Promise<void>;
}

export async function createServices(config: Config): Promise<Services> {
  const fetcher = createFetcher({ config });
  const store = await openStore(config);
  const browser = createBrowser({ config, fetcher });
  const metrics = createMetrics();
  const dom = new DomWorkers({ jobTimeoutMs: config.requestTimeoutMs });
  const documents = new DocumentWorkers();
  const lighthouse = createLighthouse({
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
    memo: createMemo(),
    async close() {
      technologies.close();
      await palettes.close();
      await lighthouse.close();
      await dom.close();
      await documents.close();
      await browser.close();
      await store.close();
    },
  };
}
