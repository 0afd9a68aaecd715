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

export interface LighthouseRunner {
  run(
    url: string,
    options: {
      options: LighthouseOptions;
      signal: AbortSignal;
      timeoutMs: number;
      /** The request's `proxy=`: the run's Chromium goes out through it. */
      proxy?: ProxySpec | null;
    },
  ): Promise<Record<string, unknown> | string>;
  /** Runs in progress now. */
  running(): number;
  /** Admission of runs: LIGHTHOUSE_RUNS at once, none waiting. */
  readonly admission: AdmissionPool;
  /** Ends every run in progress. */
  close(): Promise<void>;
}

/** A guarded egress proxy's port, held until `release()`. */
export interface EgressLease {
  port: number;
  release(): void;
}

export function createLighthouse(options: {
  chromiumPath: string | null;
  /** The guarded egress proxy (the browser pool's), or one dialling through `proxy`. */
  egress: (proxy: ProxySpec | null) => Promise<EgressLease>;
  maxRuns: number;
}): LighthouseRunner {
  /** Runs in progress, each with its way to stop. */
  const active = new Set<{ stop: () => void }>();
  const admission = new AdmissionPool({
    running: options.maxRuns,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    busyMessage: ({ maxRunning }) =>
      `Lighthouse is saturated (${maxRunning} run${
        maxRunning === 1 ? "" : "s"
      } in progress); retry later.`,
    closedError: () => new ApiError("EBROWSER", "Lighthouse was stopped: the service is closing."),
  });

  const run: LighthouseRunner["run"] = async (
    url,
    { options: wanted, signal, timeoutMs, proxy },
  ) => {
    using _place = await admission.enter();
    const entry = { stop: () => {} };
    active.add(entry);
    let egress: EgressLease | null = null;
    try {
      signal.throwIfAborted();
      const executablePath = await findChromium(options.chromiumPath);
      egress = await options.egress(proxy ?? null);
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
      return await new Promise<Record<string, unknown> | string>((resolve, reject) => {
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
    } finally {
      active.delete(entry);
      egress?.release();
    }
  };

  return {
    run,
    running: () => admission.state().running,
    admission,
    async close() {
      for (const entry of [...active]) entry.stop();
      await admission.close();
    },
  };
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
