/**
 * The pool that runs page work off the main thread: the DOM extras (custom rules, markdown) of
 * pages over WORKER_THRESHOLD, and the default fields of pages over EXTRACT_THRESHOLD (a
 * streaming pass over 5 MB of tags takes a second). At most `maxWorkers`
 * jobs at once, `maxQueue` waiting, EBUSY past that (like the browser's page pool), and a heap
 * cap per worker thread. A job's worker slot is held until the worker has really stopped, not
 * only until its caller gave up: a worker cannot be stopped from outside while it is busy, so
 * it reads its own deadline and a cancel flag inside its loops (a Budget), and one
 * that neither answers nor stops is replaced (and its slot freed) only once it is past its
 * deadline by GRACE_MS.
 */
import { Worker } from "node:worker_threads";
import { ApiError } from "../../util/errors.ts";
import { log } from "../../util/log.ts";
import { AdmissionPool, Busy, type Permit } from "../../util/admission.ts";
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

export interface DomWorkersStats {
  /** Jobs holding a worker (their callers may have given up already). */
  busy: number;
  queued: number;
  /** Worker threads alive, busy or idle. */
  workers: number;
  /** Workers given up on: silent past their deadline (stuck, or stopped at their heap cap). */
  replaced: number;
}

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

/** How long past its deadline a silent worker gets before it is given up on. */
const GRACE_MS = 2000;
const WORKER_URL = new URL("./_worker.ts", import.meta.url);

export class DomWorkers implements AsyncDisposable {
  /** Jobs holding a worker: `maxWorkers` at once, `maxQueue` in line, EBUSY past that. */
  readonly admission: AdmissionPool;
  readonly #heapMb: number;
  readonly #jobTimeoutMs: number;
  readonly #idle: Worker[] = [];
  /** Jobs holding a slot, by the promise that settles when the slot is free again. */
  readonly #running = new Set<Promise<void>>();
  /** The cancel flags of running jobs: close() raises them all. */
  readonly #cancels = new Set<Int32Array>();
  #workers = 0;
  #replaced = 0;

  constructor(options: DomWorkersOptions = {}) {
    this.admission = new AdmissionPool({
      running: options.maxWorkers ?? 2,
      waiting: options.maxQueue ?? 16,
      busyMessage: (s) =>
        `The page-processing workers are saturated (${s.maxRunning} busy, ` +
        `${s.waiting} waiting); retry later.`,
      closedError: unavailable,
    });
    this.#heapMb = options.heapMb ?? 512;
    this.#jobTimeoutMs = options.jobTimeoutMs ?? 28_000;
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

  /** Takes a worker at once when one is free, so that stats() shows the job right away. */
  #submit(task: WorkerTask, signal?: AbortSignal): Promise<DomResult | Extracted> {
    const outcome = this.admission.admit(signal);
    if (outcome instanceof Busy) return Promise.reject(outcome.error());
    return outcome instanceof Promise
      ? outcome.then((place) => this.#runOn(place, task, signal))
      : this.#runOn(outcome, task, signal);
  }

  stats(): DomWorkersStats {
    return {
      busy: this.#running.size,
      queued: this.admission.state().waiting,
      workers: this.#workers,
      replaced: this.#replaced,
    };
  }

  /** Resolves once no job holds a worker (every cancelled one has stopped). */
  async settled(): Promise<void> {
    while (this.#running.size) await Promise.all(this.#running);
  }

  async close(): Promise<void> {
    const closing = this.admission.close();
    for (const flag of this.#cancels) Atomics.store(flag, 0, 1);
    await this.settled();
    await closing;
    await Promise.all(this.#idle.splice(0).map((worker) => worker.terminate()));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #spawn(): Worker {
    this.#workers++;
    return new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: this.#heapMb },
    });
  }

  /** Gives a worker up: it is no longer counted, and is terminated if it can be. */
  #retire(worker: Worker): void {
    this.#workers--;
    worker.terminate().catch(() => {});
  }

  /** Runs one job on an idle worker or a new one; its place is held until the worker is done. */
  #runOn(place: Permit, task: WorkerTask, signal?: AbortSignal): Promise<DomResult | Extracted> {
    const worker = this.#idle.pop() ?? this.#spawn();
    worker.ref();
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    this.#cancels.add(flag);
    const endsAt = Date.now() + this.#jobTimeoutMs;
    let answer!: { resolve: (r: DomResult | Extracted) => void; reject: (e: unknown) => void };
    const answered = new Promise<DomResult | Extracted>((resolve, reject) =>
      answer = { resolve, reject }
    );

    const slot = new Promise<void>((freed) => {
      let watchdog: ReturnType<typeof setTimeout>;
      const finish = (keep: boolean) => {
        clearTimeout(watchdog);
        signal?.removeEventListener("abort", abort);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (keep) {
          // Idle, it does not keep the process alive.
          worker.unref();
          this.#idle.push(worker);
        } else this.#retire(worker);
        place.release();
        freed();
      };
      const onMessage = (reply: WorkerReply) => {
        finish(true);
        if (reply.ok) answer.resolve(reply.result);
        else if (reply.overBudget) answer.reject(tooLong(this.#jobTimeoutMs));
        else answer.reject(new ApiError("EFATAL", "Reading the page's DOM failed."));
      };
      const onError = (error: unknown) => {
        log.warn("DOM worker failed", {
          error: error instanceof Error ? error.message : String(error),
        });
        finish(false);
        answer.reject(new ApiError("EFATAL", "Reading the page's DOM failed."));
      };
      const onExit = () => {
        finish(false);
        answer.reject(new ApiError("EFATAL", "Reading the page's DOM failed."));
      };
      // Silent past its deadline: stuck in one step, or stopped at its heap cap (it then says
      // nothing). Either way it is replaced.
      const giveUp = () => {
        log.warn("DOM worker did not stop at its deadline; replacing it", {});
        this.#replaced++;
        finish(false);
        answer.reject(tooLong(this.#jobTimeoutMs));
      };
      const abort = () => {
        Atomics.store(flag, 0, 1);
        answer.reject(signal!.reason);
        clearTimeout(watchdog);
        watchdog = setTimeout(giveUp, GRACE_MS);
      };
      watchdog = setTimeout(giveUp, endsAt - Date.now() + GRACE_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      if (signal?.aborted) abort();
      else signal?.addEventListener("abort", abort, { once: true });
      worker.postMessage({ task, endsAt, cancel } satisfies WorkerJob);
    });
    this.#running.add(slot);
    slot.finally(() => {
      this.#running.delete(slot);
      this.#cancels.delete(flag);
    });
    return answered;
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
