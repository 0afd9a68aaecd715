/**
 * The DOM-based extras of a request (custom `data` rules, the `markdown` view) from one parse.
 * Small pages run here; large ones in a short-lived Worker, because a full DOM of a page of
 * several MB takes a second or more that must not stall every other request.
 */
import { ApiError } from "../errors.ts";
import { runRulesOnDocument } from "./custom.ts";
import type { CustomRules } from "./custom_rules.ts";
import { parseHtml } from "./dom.ts";
import { documentToMarkdown } from "./markdown.ts";

export interface DomWork {
  html: string;
  url: string;
  rules: CustomRules | null;
  markdown: boolean;
  /** Values of the rules' `evaluate` sources, computed in the browser. */
  evaluated?: unknown[];
}

export interface DomResult {
  custom: Record<string, unknown>;
  markdown: string | null;
}

/** Above this many characters of HTML the work moves off the main thread. */
export const WORKER_THRESHOLD = 256 * 1024;
const WORKER_URL = new URL("./_dom_worker.ts", import.meta.url).href;

export function domWorkSync(work: DomWork): DomResult {
  const doc = parseHtml(work.html);
  return {
    custom: work.rules
      ? runRulesOnDocument(doc, { url: work.url, rules: work.rules, evaluated: work.evaluated })
      : {},
    markdown: work.markdown ? documentToMarkdown(doc, work.url) : null,
  };
}

/** Runs the work, in a Worker for large pages; the Worker dies with the request's signal. */
export function domWork(work: DomWork, options: { signal?: AbortSignal } = {}): Promise<DomResult> {
  if (work.html.length <= WORKER_THRESHOLD) {
    try {
      return Promise.resolve(domWorkSync(work));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { type: "module" });
    const finish = () => {
      signal?.removeEventListener("abort", abort);
      worker.terminate();
    };
    const abort = () => {
      finish();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
    worker.onmessage = (event: MessageEvent<DomResult>) => {
      finish();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new ApiError("EFATAL", "Reading the page's DOM failed."));
    };
    worker.postMessage(work);
  });
}
