/**
 * `insights.lighthouse`: a Lighthouse report of the page. Each run is a Worker
 * (`_lighthouse_worker.ts`) driving a Chromium of its own, launched with linkpeek's flags behind
 * linkpeek's guarded egress proxy. The pooled browser is reachable only over its pipe from this
 * thread, and Lighthouse on this thread would stall every other request (0.3-0.5 s blocks,
 * measured), so the run cannot share it. At most `LIGHTHOUSE_RUNS` (default 1) runs at once:
 * one more is EBUSY at once. The request's signal ends a run: the Worker is terminated and its
 * Chromium killed.
 */
import { ApiError, ERROR_STATUS, type ErrorCode } from "../util/errors.ts";
import { findChromium, removeDir } from "../browser/launch.ts";
import { log } from "../util/log.ts";
import { AdmissionPool } from "../util/admission.ts";
import type { LighthouseJob, LighthouseMessage, LighthouseOptions } from "./lighthouse_types.ts";

export type { LighthouseOptions } from "./lighthouse_types.ts";
export { LIGHTHOUSE_CATEGORIES } from "./lighthouse_types.ts";

const WORKER_URL = new URL("./_lighthouse_worker.ts", import.meta.url).href;
/** A run takes 5-10 s; a client told to come back sooner would find it still busy. */
const RETRY_AFTER_SECONDS = 10;
/** Lighthouse's own default page-load wait; the request's deadline usually ends it first. */
const MAX_WAIT_FOR_LOAD_MS = 45_000;

export interface LighthouseRunner extends AsyncDisposable {
  run(
    url: string,
    options: { options: LighthouseOptions; signal: AbortSignal; timeoutMs: number },
  ): Promise<Record<string, unknown>>;
  /** Runs in progress now. */
  running(): number;
  /** Admission of runs: LIGHTHOUSE_RUNS at once, none waiting. */
  readonly admission: AdmissionPool;
  /** Ends every run in progress. */
  close(): Promise<void>;
}

export interface LighthouseSettings {
  chromiumPath: string | null;
  /** The guarded egress proxy's port (the browser pool's). */
  egressPort: () => Promise<number>;
  maxRuns: number;
}

export function createLighthouse(options: LighthouseSettings): LighthouseRunner {
  return new LighthouseWorkers(options);
}

class LighthouseWorkers implements LighthouseRunner {
  readonly admission: AdmissionPool;
  readonly #options: LighthouseSettings;
  /** Runs in progress, each with its way to stop. */
  readonly #active = new Set<{ stop: () => void }>();

  constructor(options: LighthouseSettings) {
    this.#options = options;
    this.admission = new AdmissionPool({
      running: options.maxRuns,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      busyMessage: ({ maxRunning }) =>
        `Lighthouse is saturated (${maxRunning} run${
          maxRunning === 1 ? "" : "s"
        } in progress); retry later.`,
      closedError: () =>
        new ApiError("EBROWSER", "Lighthouse was stopped: the service is closing."),
    });
  }

  running(): number {
    return this.admission.state().running;
  }

  async close(): Promise<void> {
    for (const entry of [...this.#active]) entry.stop();
    await this.admission.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async run(
    url: string,
    { options: wanted, signal, timeoutMs }: {
      options: LighthouseOptions;
      signal: AbortSignal;
      timeoutMs: number;
    },
  ): Promise<Record<string, unknown>> {
    const options = this.#options;
    const active = this.#active;
    using _place = await this.admission.enter();
    const entry = { stop: () => {} };
    active.add(entry);
    try {
      signal.throwIfAborted();
      const job: LighthouseJob = {
        url,
        executablePath: await findChromium(options.chromiumPath),
        proxyPort: await options.egressPort(),
        preset: wanted.preset ?? "mobile",
        onlyCategories: wanted.onlyCategories,
        maxWaitForLoadMs: Math.min(MAX_WAIT_FOR_LOAD_MS, timeoutMs),
      };
      signal.throwIfAborted();
      return await new Promise<Record<string, unknown>>((resolve, reject) => {
        const worker = new Worker(WORKER_URL, { type: "module" });
        let chromium: { pid: number | null; userDataDir: string } | null = null;
        const finish = () => {
          signal.removeEventListener("abort", abort);
          worker.terminate();
          // A Worker's children outlive it: its Chromium is killed here, by pid.
          if (chromium?.pid) killQuietly(chromium.pid);
          if (chromium) void removeDir(chromium.userDataDir);
          active.delete(entry);
        };
        entry.stop = () => {
          finish();
          reject(new ApiError("EBROWSER", "Lighthouse was stopped: the service is closing."));
        };
        const abort = () => {
          finish();
          reject(signal.reason);
        };
        signal.addEventListener("abort", abort, { once: true });
        worker.onmessage = (event: MessageEvent<LighthouseMessage>) => {
          const message = event.data;
          if (message.type === "launched") {
            chromium = message;
            return;
          }
          chromium = chromium && { ...chromium, pid: null }; // the Worker closed it
          finish();
          if (message.type === "done") resolve(message.report);
          else reject(workerError(message, url));
        };
        worker.onerror = (event) => {
          event.preventDefault();
          finish();
          log.warn("lighthouse worker failed", { error: event.message });
          reject(new ApiError("EFATAL", `Lighthouse could not audit "${url}".`));
        };
        worker.postMessage(job);
      });
    } finally {
      active.delete(entry);
    }
  }
}

function workerError(message: { code: string; message: string }, url: string): ApiError {
  const code = Object.hasOwn(ERROR_STATUS, message.code) ? message.code as ErrorCode : "EFATAL";
  return new ApiError(
    code,
    code === "EFATAL"
      ? `Lighthouse could not audit "${url}" (${message.message}).`
      : message.message,
  );
}

function killQuietly(pid: number): void {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
