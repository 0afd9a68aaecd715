/**
 * `insights.technologies`: which technologies a page uses (Wappalyzer rules), in one
 * long-lived Worker started on first use: the rules take ~300 ms to load and the patterns
 * ~100-300 ms to run, which must not stall other requests. Jobs are admitted one at a time
 * (an AdmissionPool); past MAX_WAITING waiting ones a request gets EBUSY. A request that ends while its job runs takes
 * the Worker with it (the next job starts a new one); an idle Worker is ended after a minute.
 */
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { AdmissionPool, type Permit } from "../util/admission.ts";
import type { DetectInput, Technology } from "./wappalyzer.ts";

export type { DetectInput, Technology } from "./wappalyzer.ts";

const WORKER_URL = new URL("./_technologies_worker.ts", import.meta.url).href;
const MAX_WAITING = 16;
const IDLE_MS = 60_000;

type Answer = { ok: true; technologies: Technology[] } | { ok: false; message: string };

interface Job {
  input: DetectInput;
  signal: AbortSignal;
  resolve: (technologies: Technology[]) => void;
  reject: (error: unknown) => void;
  place: Permit;
}

export interface TechnologyDetector {
  detect(input: DetectInput, options: { signal: AbortSignal }): Promise<Technology[]>;
  /** Admission of jobs: one at a time, MAX_WAITING in line. */
  readonly admission: AdmissionPool;
  close(): void;
}

export function createTechnologyDetector(): TechnologyDetector {
  const admission = new AdmissionPool({
    running: 1,
    waiting: MAX_WAITING,
    busyMessage: () => "The technology detector is saturated; retry later.",
    closedError: () => new ApiError("EBROWSER", "The service is closing."),
  });
  let worker: Worker | null = null;
  let current: Job | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const stopWorker = () => {
    worker?.terminate();
    worker = null;
  };

  /** The running job is over: its place goes to the next in line, else the Worker idles. */
  const done = (job: Job) => {
    current = null;
    job.signal.removeEventListener("abort", onAbort);
    job.place.release();
    if (admission.state().running === 0) {
      clearTimeout(idle);
      idle = setTimeout(stopWorker, IDLE_MS);
      Deno.unrefTimer(idle);
    }
  };

  const settle = (answer: Answer | Error) => {
    const job = current;
    if (!job) return;
    done(job);
    if (answer instanceof Error) job.reject(answer);
    else if (answer.ok) job.resolve(answer.technologies);
    else {
      log.warn("technology detection failed", { error: answer.message });
      job.reject(
        new ApiError("EFATAL", `Detecting the technologies of "${job.input.url}" failed.`),
      );
    }
  };

  function onAbort(this: AbortSignal) {
    if (current?.signal !== this) return;
    stopWorker(); // the only way to stop a pattern run mid-way
    const job = current;
    done(job);
    job.reject(this.reason);
  }

  function start(): Worker {
    const created = new Worker(WORKER_URL, { type: "module" });
    created.onmessage = (event: MessageEvent<Answer>) => settle(event.data);
    created.onerror = (event) => {
      event.preventDefault();
      if (worker === created) worker = null;
      created.terminate();
      settle(new ApiError("EFATAL", "The technology detector failed."));
    };
    return created;
  }

  return {
    admission,
    async detect(input, { signal }) {
      signal.throwIfAborted();
      const place = await admission.enter(signal);
      return await new Promise<Technology[]>((resolve, reject) => {
        if (signal.aborted) {
          place.release();
          return reject(signal.reason);
        }
        clearTimeout(idle);
        current = { input, signal, resolve, reject, place };
        signal.addEventListener("abort", onAbort, { once: true });
        (worker ??= start()).postMessage(input);
      });
    },
    close() {
      // The line is refused first, so that no waiter is handed the running job's place.
      void admission.close();
      const job = current;
      if (job) {
        done(job);
        job.reject(new ApiError("EBROWSER", "The service is closing."));
      }
      clearTimeout(idle);
      stopWorker();
    },
  };
}
