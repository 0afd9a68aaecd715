/**
 * The pool that runs page work off the main thread: the DOM extras (custom rules, markdown) of
 * pages over WORKER_THRESHOLD (and of smaller ones whose work outlasts SMALL_PAGE_SLICE_MS
 * here), and the default fields of pages over EXTRACT_THRESHOLD (a
 * streaming pass over 5 MB of tags takes a second). A request alone in the service runs the
 * work of a page up to ALONE_LIMIT on the main thread for at most a slice of time, then moves
 * it to a worker (see #here); when that work wants the default fields too, an idle worker reads
 * them meanwhile (see #split). At most `maxWorkers` jobs at once,
 * `maxQueue` waiting, EBUSY past that (like the browser's page pool), a heap cap per worker
 * thread: a WorkerPool's mechanics, with page work's tasks, limits and errors. Each worker reads
 * its job's deadline and cancel flag inside its loops (a Budget).
 */
import { ApiError } from "../../util/errors.ts";
import type { AdmissionPool } from "../../util/admission.ts";
import { WorkerPool, type WorkerPoolStats } from "../../util/worker_pool.ts";
import { type Budget, BudgetExceeded, withBudget } from "./budget.ts";
import { type DomResult, type DomWork, domWorkSync, WORKER_THRESHOLD } from "./work.ts";
import { extract, type Extracted, type ExtractOptions } from "../mod.ts";

/**
 * Above this many characters the default fields are read off the main thread: the streaming
 * pass costs up to ~0.1 µs a character (nested tags), so up to ~5 ms here (measured by
 * bench/extract_bench.ts; it was quoted as 0.3 µs and 20 ms).
 */
export const EXTRACT_THRESHOLD = 64 * 1024;

/**
 * A page up to this many characters is worked on the main thread when its request is alone
 * (DomWorkersOptions.alone): its DOM job takes a few ms (median ~8 ms for pages of 384-512 KB,
 * ~14 ms at 512-768 KB, on a slow 2-core machine), while the hop to a worker and back costs
 * ~1 ms of a request's ~7. Past 512 KB the median nears the 20 ms slice and work spent before
 * a move to a worker is lost (a request of pages over 256 KB: ~11% faster at 512 KB, no gain
 * at 1 MB; bench:content, paired).
 */
export const ALONE_LIMIT = 512 * 1024;

/**
 * A page up to WORKER_THRESHOLD is worked on the main thread for at most this long, then on a
 * worker: its own steps are linear (a few ms), but a caller's selector need not be
 * (`:has(~ *, :has(~ *, :has(~ span)))` is quartic in a page's depth).
 */
export const SMALL_PAGE_SLICE_MS = 20;

export interface DomWorkersOptions {
  /** Jobs running at once (one worker thread each); default 2. */
  maxWorkers?: number;
  /** Jobs waiting for a worker; beyond it EBUSY. Default 16. */
  maxQueue?: number;
  /** Old-generation heap one worker may hold, in MB; default 512. */
  heapMb?: number;
  /** Longest a job may run, in ms, when its caller does not end it first; default 28 000. */
  jobTimeoutMs?: number;
  /**
   * Page work up to ALONE_LIMIT runs on the main thread while `when()` says the calling request
   * is the only one in flight, for at most `sliceMs` (past it, a hostile page, the work stops
   * and runs again on a worker). Default: always on a worker.
   */
  alone?: { when: () => boolean; sliceMs: number };
}

export interface DomWorkersStats extends WorkerPoolStats {
  /** Page work done on the main thread because its request was alone. */
  aloneRuns: number;
  /** Of those, runs that outlasted their slice (`alone.sliceMs`) and moved to a worker. */
  aloneMoved: number;
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

const WORKER_URL = new URL("./_worker.ts", import.meta.url);

export class DomWorkers implements AsyncDisposable {
  readonly #pool: WorkerPool<WorkerTask, WorkerReply>;
  readonly #jobTimeoutMs: number;
  readonly #alone: DomWorkersOptions["alone"];
  #aloneRuns = 0;
  #aloneMoved = 0;

  constructor(options: DomWorkersOptions = {}) {
    this.#jobTimeoutMs = options.jobTimeoutMs ?? 28_000;
    this.#alone = options.alone;
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

  /**
   * Custom rules and markdown (small pages on this thread, the rest on a worker), with the
   * default fields when `work.fields` asks for them (see #split).
   */
  async run(work: DomWork, options: { signal?: AbortSignal } = {}): Promise<DomResult> {
    options.signal?.throwIfAborted();
    if (work.fields && this.worksHere(work.html.length)) return await this.#split(work, options);
    const here = work.html.length <= WORKER_THRESHOLD
      ? inSlice(SMALL_PAGE_SLICE_MS, (budget) => domWorkSync(work, budget))
      : this.#here(work.html.length, (budget) => domWorkSync(work, budget));
    if (here) return here;
    return await this.#submit({ kind: "dom", work }, options.signal) as DomResult;
  }

  /**
   * The DOM work of a request alone, here, while an idle worker reads the default fields from a
   * parse of its own: a second parse, on the machine's other core, that takes the fields off
   * the request's path (about a sixth of a `markdown=true` request; bench:content). Busy, the
   * service reads both from one parse instead, on whatever thread run() picks.
   */
  async #split(work: DomWork, options: { signal?: AbortSignal }): Promise<DomResult> {
    const { fields, ...domOnly } = work;
    const extracted = this.#submit(
      { kind: "extract", html: work.html, url: work.url, options: fields! },
      options.signal,
    );
    // Awaited below, once the DOM work is done; until then its failure is not yet unhandled.
    extracted.catch(() => {});
    const here = this.#inAloneSlice((budget) => domWorkSync(domOnly, budget));
    const dom = here ?? await this.#submit({ kind: "dom", work: domOnly }, options.signal);
    return { ...dom as DomResult, extracted: await extracted as Extracted };
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
    const here = this.#here(
      html.length,
      (budget) => withBudget(budget, () => extract(html, url, extractOptions)),
    );
    if (here) return here;
    const task: WorkerTask = { kind: "extract", html, url, options: extractOptions };
    return await this.#submit(task, signal) as Extracted;
  }

  /**
   * The work done here, on the main thread, when the request is alone, the pool idle and the
   * page within ALONE_LIMIT; null when it must go to a worker (or stopped at its slice: a
   * worker starts it again, with the whole job's time).
   */
  #here<T>(size: number, work: (budget: Budget) => T): T | null {
    return this.worksHere(size) ? this.#inAloneSlice(work) : null;
  }

  /** Work of a lone request, here for at most its slice; null once the slice is spent. */
  #inAloneSlice<T>(work: (budget: Budget) => T): T | null {
    this.#aloneRuns++;
    const done = inSlice(this.#alone!.sliceMs, work);
    if (done === null) this.#aloneMoved++;
    return done;
  }

  /**
   * Whether page work of `size` characters would run on this thread now: the request is alone,
   * the pool idle and the page within ALONE_LIMIT.
   */
  worksHere(size: number): boolean {
    const alone = this.#alone;
    if (!alone || size > ALONE_LIMIT) return false;
    const { busy, queued } = this.#pool.stats();
    return busy === 0 && queued === 0 && alone.when();
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
    return { ...this.#pool.stats(), aloneRuns: this.#aloneRuns, aloneMoved: this.#aloneMoved };
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

/**
 * Page work on this thread for at most `sliceMs`; null once the slice is spent (the work is
 * started again on a worker, with the whole job's time).
 */
function inSlice<T>(sliceMs: number, work: (budget: Budget) => T): T | null {
  try {
    return work({ endsAt: Date.now() + sliceMs });
  } catch (error) {
    if (error instanceof BudgetExceeded) return null;
    throw error;
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
