/**
 * `insights.lighthouse`: a Lighthouse report of the page. Each run is a Worker
 * (`_lighthouse_worker.ts`) driving a Chromium of its own, started by this thread
 * (`spawnPipedChromium`) with linkpeek's flags behind linkpeek's guarded egress proxy, the one
 * dialling through the request's `proxy=` when it names one. The pooled browser is reachable only over its pipe from this
 * thread, and Lighthouse on this thread would stall every other request (0.3-0.5 s blocks,
 * measured), so the run cannot share it. At most `LIGHTHOUSE_RUNS` (default 1) runs at once:
 * one more is EBUSY at once. The request's signal ends a run, even one whose Chromium is still
 * starting: the Worker is terminated, its Chromium killed and its profile removed.
 */
import { ApiError, ERROR_STATUS, type ErrorCode } from "../util/errors.ts";
import { findChromium } from "../browser/launch.ts";
import type { ProxySpec } from "../fetch/proxy_client.ts";
import { log } from "../util/log.ts";
import { AdmissionPool } from "../util/admission.ts";
import type {
  LighthouseInput,
  LighthouseJob,
  LighthouseMessage,
  LighthouseOptions,
} from "./lighthouse_types.ts";
import { pipedChromiumArgs, spawnPipedChromium } from "./lighthouse_chromium.ts";

export type { LighthouseOptions } from "./lighthouse_types.ts";
export {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_OUTPUTS,
  LIGHTHOUSE_PRESETS,
} from "./lighthouse_types.ts";

const WORKER_URL = new URL("./_lighthouse_worker.ts", import.meta.url).href;
/** A run takes 5-10 s; a client told to come back sooner would find it still busy. */
const RETRY_AFTER_SECONDS = 10;
/** Lighthouse's own default page-load wait; the request's deadline usually ends it first. */
const MAX_WAIT_FOR_LOAD_MS = 45_000;

/** A guarded egress proxy's port, held until `release()`. */
export interface EgressLease {
  port: number;
  release(): void;
}

export class LighthouseRunner implements AsyncDisposable {
  /** Admission of runs: LIGHTHOUSE_RUNS at once, none waiting. */
  readonly admission: AdmissionPool;
  readonly #chromiumPath: string | null;
  readonly #egress: (proxy: ProxySpec | null) => Promise<EgressLease>;
  /** Runs in progress, each with its way to stop. */
  readonly #active = new Set<{ stop: () => void }>();

  constructor(options: {
    chromiumPath: string | null;
    /** The guarded egress proxy (the browser pool's), or one dialling through `proxy`. */
    egress: (proxy: ProxySpec | null) => Promise<EgressLease>;
    maxRuns: number;
  }) {
    this.#chromiumPath = options.chromiumPath;
    this.#egress = options.egress;
    this.admission = new AdmissionPool({
      running: options.maxRuns,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      busyMessage: ({ maxRunning }) =>
        `Lighthouse is saturated (${maxRunning} run${
          maxRunning === 1 ? "" : "s"
        } in progress); retry later.`,
      closedError: stopped,
    });
  }

  /** The report of `url`: a JSON object, or the text of the html/csv output. */
  async run(
    url: string,
    { options: wanted, signal, timeoutMs, proxy }: {
      options: LighthouseOptions;
      signal: AbortSignal;
      timeoutMs: number;
      /** The request's `proxy=`: the run's Chromium goes out through it. */
      proxy?: ProxySpec | null;
    },
  ): Promise<Record<string, unknown> | string> {
    using _place = await this.admission.enter();
    const entry = { stop: () => {} };
    this.#active.add(entry);
    let egress: EgressLease | null = null;
    try {
      signal.throwIfAborted();
      const executablePath = await findChromium(this.#chromiumPath);
      egress = await this.#egress(proxy ?? null);
      const { preset, output, ...settings } = wanted;
      const job: LighthouseJob = {
        url,
        preset: preset ?? "default",
        output: output ?? "json",
        settings,
        maxWaitForLoadMs: Math.min(MAX_WAIT_FOR_LOAD_MS, timeoutMs),
      };
      signal.throwIfAborted();
      const args = await pipedChromiumArgs(egress.port);
      signal.throwIfAborted();
      return await this.#audit({ job, executablePath, args, signal, entry });
    } finally {
      this.#active.delete(entry);
      egress?.release();
    }
  }

  /** Runs in progress now. */
  running(): number {
    return this.admission.state().running;
  }

  /** Ends every run in progress. */
  async close(): Promise<void> {
    for (const entry of [...this.#active]) entry.stop();
    await this.admission.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** One run's Worker and its Chromium, until the report, a failure, the signal or close(). */
  #audit({ job, executablePath, args, signal, entry }: {
    job: LighthouseJob;
    executablePath: string;
    args: string[];
    signal: AbortSignal;
    entry: { stop: () => void };
  }): Promise<Record<string, unknown> | string> {
    const { url } = job;
    return new Promise<Record<string, unknown> | string>((resolve, reject) => {
      const worker = new Worker(WORKER_URL, { type: "module" });
      let finished = false;
      // Made and started on this thread, with nothing awaited in between: whatever ends the
      // run from here on knows the pid and the profile folder.
      const chromium = spawnPipedChromium({
        executablePath,
        args,
        userDataDir: Deno.makeTempDirSync({ prefix: "linkpeek-chromium-" }),
        onData: (chunk) => {
          if (!finished) worker.postMessage({ type: "cdp", chunk }, [chunk.buffer]);
        },
        onExit: () => {
          if (!finished) worker.postMessage({ type: "closed" });
        },
      });
      const finish = () => {
        finished = true;
        signal.removeEventListener("abort", abort);
        worker.terminate();
        void chromium.kill();
        this.#active.delete(entry);
      };
      entry.stop = () => {
        finish();
        reject(stopped());
      };
      const abort = () => {
        finish();
        reject(signal.reason);
      };
      signal.addEventListener("abort", abort, { once: true });
      worker.onmessage = (event: MessageEvent<LighthouseMessage>) => {
        const message = event.data;
        if (message.type === "cdp") return chromium.send(message.message);
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
      worker.postMessage({ type: "job", job } satisfies LighthouseInput);
    });
  }
}

function stopped(): ApiError {
  return new ApiError("EBROWSER", "Lighthouse was stopped: the service is closing.");
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
