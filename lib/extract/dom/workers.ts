/**
 * The pool that runs page work off the main thread: the DOM extras (custom rules, markdown) of
 * pages over WORKER_THRESHOLD, and the default fields of pages over EXTRACT_THRESHOLD (a
 * streaming pass over 5 MB of tags takes a second). At most `maxWorkers` jobs at once,
 * `maxQueue` waiting, EBUSY past that (like the browser's page pool), a heap cap per worker
 * thread: a WorkerPool's mechanics, with page work's tasks, limits and errors. Each worker reads
 * its job's deadline and cancel flag inside its loops (a Budget).
 */
import { ApiError } from "../../util/errors.ts";
import type { AdmissionPool } from "../../util/admission.ts";
import { WorkerPool, type WorkerPoolStats } from "../../util/worker_pool.ts";
import { BudgetExceeded } from "./budget.ts";
import { type DomResult, type DomWork, domWorkSync, WORKER_THRESHOLD } from "./work.ts";
import { extract, type Extracted, type ExtractOptions } from "../mod.ts";

/**
 * Above this many characters the default fields are read off the main thread: the streaming
 * pass costs up to ~0.1 µs a character (nested tags), so up to ~5 ms here (measured by
 * bench/extract_bench.ts; it was quoted as 0.3 µs and 20 ms).
 */
export const EXTRACT_THRESHOLD = 64 * 1024;

export interface DomWorkersOptions {
  /** Jobs running at once (one worker thread each); default 2. */
  maxWorkers?: number;
  /** Jobs waiting for a worker; beyond it EBUSY. Default 16. */
  maxQueue?: number;
  /** Old-generation heap one worker may hold, in MB; default 512. */
  heapMb?: number;
  /** Longest a job may run, in ms, when its caller does not end it first; default 28 000. */
  jobTimeoutMs?: number;
}

export type DomWorkersStats = WorkerPoolStats;

/** One piece of page work, by kind. */
export type WorkerTask =
  | { kind: "dom"; work: DomWork }
  | { kind: "extract"; html: string; url: string; options: ExtractOptions };

/** What a worker answers. */
export type WorkerReply =
  | { ok: true; result: DomResult | Extracted }
  | { ok: false; overBudget: boolean; message: string };

/** What a worker is sent. */
export interface WorkerJob {
  task: WorkerTask;
  endsAt: number;
  /** Int32 flag: non-zero once the caller gave up. */
  cancel: SharedArrayBuffer;
}

const WORKER_URL = new URL("./_worker.ts", import.meta.url);

export class DomWorkers implements AsyncDisposable {
  readonly #pool: WorkerPool<WorkerTask, WorkerReply>;
  readonly #jobTimeoutMs: number;

  constructor(options: DomWorkersOptions = {}) {
    this.#jobTimeoutMs = options.jobTimeoutMs ?? 28_000;
    this.#pool = new WorkerPool({
      module: WORKER_URL,
      name: "DOM worker",
      admission: {
        running: options.maxWorkers ?? 2,
        waiting: options.maxQueue ?? 16,
        busyMessage: (s) =>
          `The page-processing workers are saturated (${s.maxRunning} busy, ` +
          `${s.waiting} waiting); retry later.`,
        closedError: unavailable,
      },
      heapMb: options.heapMb ?? 512,
      jobTimeoutMs: this.#jobTimeoutMs,
    });
  }

  /** Jobs holding a worker: `maxWorkers` at once, `maxQueue` in line, EBUSY past that. */
  get admission(): AdmissionPool {
    return this.#pool.admission;
  }

  /** Custom rules and markdown (small pages on this thread, the rest on a worker). */
  async run(work: DomWork, options: { signal?: AbortSignal } = {}): Promise<DomResult> {
    options.signal?.throwIfAborted();
    if (work.html.length <= WORKER_THRESHOLD) {
      try {
        return domWorkSync(work, { endsAt: Date.now() + this.#jobTimeoutMs });
      } catch (error) {
        throw error instanceof BudgetExceeded ? tooLong(this.#jobTimeoutMs) : error;
      }
    }
    return await this.#submit({ kind: "dom", work }, options.signal) as DomResult;
  }

  /** The default fields (extract()), on a worker for a large page. */
  async extract(
    html: string,
    url: string,
    options: ExtractOptions & { signal?: AbortSignal } = {},
  ): Promise<Extracted> {
    const { signal, ...extractOptions } = options;
    signal?.throwIfAborted();
    if (html.length <= EXTRACT_THRESHOLD) return extract(html, url, extractOptions);
    const task: WorkerTask = { kind: "extract", html, url, options: extractOptions };
    return await this.#submit(task, signal) as Extracted;
  }

  /** A task's result, or the ApiError its failure is answered with. */
  async #submit(task: WorkerTask, signal?: AbortSignal): Promise<DomResult | Extracted> {
    const outcome = await this.#pool.run(task, { signal });
    const reply = outcome.ended === "reply" ? outcome.reply : null;
    if (reply?.ok) return reply.result;
    if (outcome.ended === "deadline" || reply?.overBudget) throw tooLong(this.#jobTimeoutMs);
    throw new ApiError("EFATAL", "Reading the page's DOM failed.");
  }

  stats(): DomWorkersStats {
    return this.#pool.stats();
  }

  /** Resolves once no job holds a worker (every cancelled one has stopped). */
  settled(): Promise<void> {
    return this.#pool.settled();
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function tooLong(ms: number): ApiError {
  return new ApiError("ETIMEOUT", `Reading the page's DOM took longer than ${ms} ms.`);
}

function unavailable(): ApiError {
  return new ApiError("EBUSY", "The page-processing workers are shutting down; retry later.", {
    headers: { "retry-after": "2" },
  });
}
