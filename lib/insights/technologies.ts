/**
 * `insights.technologies`: which technologies a page uses (lib/insights/wappalyzer.ts), in one
 * long-lived Worker started on first use: the rules take ~300 ms to load and the patterns
 * ~100-300 ms to run, which must not stall other requests. Jobs run one at a time; past
 * MAX_WAITING waiting ones a request gets EBUSY. A request that ends while its job runs takes
 * the Worker with it (the next job starts a new one); an idle Worker is ended after a minute.
 */
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
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
}

export interface TechnologyDetector {
  detect(input: DetectInput, options: { signal: AbortSignal }): Promise<Technology[]>;
  close(): void;
}

export function createTechnologyDetector(): TechnologyDetector {
  const waiting: Job[] = [];
  let worker: Worker | null = null;
  let current: Job | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const stopWorker = () => {
    worker?.terminate();
    worker = null;
  };

  const next = () => {
    if (current) return;
    const job = waiting.shift();
    if (!job) {
      clearTimeout(idle);
      idle = setTimeout(stopWorker, IDLE_MS);
      Deno.unrefTimer(idle);
      return;
    }
    clearTimeout(idle);
    current = job;
    const running = worker ??= start();
    running.postMessage(job.input);
  };

  const settle = (answer: Answer | Error) => {
    const job = current;
    if (!job) return;
    current = null;
    job.signal.removeEventListener("abort", onAbort);
    if (answer instanceof Error) job.reject(answer);
    else if (answer.ok) job.resolve(answer.technologies);
    else {
      log.warn("technology detection failed", { error: answer.message });
      job.reject(
        new ApiError("EFATAL", `Detecting the technologies of "${job.input.url}" failed.`),
      );
    }
    next();
  };

  function onAbort(this: AbortSignal) {
    const queued = waiting.findIndex((job) => job.signal === this);
    if (queued !== -1) {
      waiting.splice(queued, 1)[0]!.reject(this.reason);
    } else if (current?.signal === this) {
      stopWorker(); // the only way to stop a pattern run mid-way
      const job = current;
      current = null;
      job.reject(this.reason);
      next();
    }
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
    detect(input, { signal }) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (waiting.length >= MAX_WAITING) {
        return Promise.reject(
          new ApiError("EBUSY", "The technology detector is saturated; retry later.", {
            headers: { "retry-after": "2" },
          }),
        );
      }
      return new Promise((resolve, reject) => {
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.push({ input, signal, resolve, reject });
        next();
      });
    },
    close() {
      clearTimeout(idle);
      const closing = new ApiError("EBROWSER", "The service is closing.");
      for (const job of waiting.splice(0)) job.reject(closing);
      current?.reject(closing);
      current = null;
      stopWorker();
    },
  };
}
