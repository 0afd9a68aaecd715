/**
 * The pool that converts documents off the main thread: at most `maxWorkers` conversions at
 * once, `maxQueue` waiting (EBUSY past that), and a heap cap per worker thread, so a hostile
 * document costs one capped thread and never the event loop or the process. A WorkerPool's
 * mechanics with conversion's limits and outcomes: a job answers by its deadline or its caller's
 * signal, whichever comes first, and a conversion that gives no document is an outcome (why,
 * and a message), never an error. Conversions are rare and heavy, page work (DomWorkers)
 * frequent and light: two pools.
 */
import { ApiError } from "../util/errors.ts";
import type { AdmissionPool } from "../util/admission.ts";
import { type PoolJob, WorkerPool, type WorkerPoolStats } from "../util/worker_pool.ts";
import type { Converted } from "./convert.ts";
import type { DocumentFormat } from "./detect.ts";
import { type RefusalReason } from "./refused.ts";

export interface DocumentWorkersOptions {
  /** Conversions at once (one worker thread each); default 1. */
  maxWorkers?: number;
  /** Conversions waiting for a worker; beyond it EBUSY. Default 8. */
  maxQueue?: number;
  /** Old-generation heap one worker may hold, in MB; default 256. */
  heapMb?: number;
}

/** What a worker converts. */
export interface ConvertTask {
  format: DocumentFormat;
  /**
   * The document's bytes, in shared memory: a Uint8Array posted to a worker (cloned or even
   * transferred) took ~0.5 s per 2 MB here, a SharedArrayBuffer costs a copy.
   */
  bytes: SharedArrayBuffer;
  /**
   * Whether the caller reads the whole converted document (markdown, text, rules, insights), or
   * only its head and opening (fieldsView): then only those cross back, not megabytes of HTML.
   */
  whole: boolean;
}

/** What a worker is sent. */
export type ConvertJob = PoolJob<ConvertTask>;

/** What a worker answers. */
export type ConvertReply =
  | { ok: true; converted: Converted }
  | { ok: false; refused: RefusalReason | null; overBudget: boolean; message: string };

/** How a conversion ended when it gave no document. */
export type ConvertFailure = RefusalReason | "over-budget" | "failed";

export type ConvertOutcome =
  | { ok: true; converted: Converted }
  | { ok: false; failure: ConvertFailure; message: string };

const WORKER_URL = new URL("./_worker.ts", import.meta.url);

export class DocumentWorkers implements AsyncDisposable {
  readonly #pool: WorkerPool<ConvertTask, ConvertReply>;

  constructor(options: DocumentWorkersOptions = {}) {
    this.#pool = new WorkerPool({
      module: WORKER_URL,
      name: "document worker",
      admission: {
        running: options.maxWorkers ?? 1,
        waiting: options.maxQueue ?? 8,
        busyMessage: (s) =>
          `The document converters are saturated (${s.maxRunning} converting, ` +
          `${s.waiting} waiting); retry later.`,
        closedError: () =>
          new ApiError("EBUSY", "The document converters are shutting down; retry later.", {
            headers: { "retry-after": "2" },
          }),
      },
      heapMb: options.heapMb ?? 256,
      // A conversion builds megabytes of short-lived strings: with V8's default nursery they
      // were promoted into the capped old generation and forced full collections (an RTF of
      // 2.3 MB took 1.3x the bare converter's time, 1.05x with this; bench:documents). Costs
      // one thread up to ~60 MB more resident memory.
      youngMb: 32,
    });
  }

  /** Conversions holding a worker: `maxWorkers` at once, `maxQueue` in line, EBUSY past that. */
  get admission(): AdmissionPool {
    return this.#pool.admission;
  }

  stats(): WorkerPoolStats {
    return this.#pool.stats();
  }

  /**
   * Converts `bytes` by `endsAt` (epoch ms). Resolves with the outcome (a refusal is an outcome,
   * not an error); rejects with EBUSY when saturated, or the signal's reason when it aborts.
   */
  async convert(
    format: DocumentFormat,
    bytes: Uint8Array,
    options: { endsAt: number; whole: boolean; signal?: AbortSignal },
  ): Promise<ConvertOutcome> {
    const shared = new SharedArrayBuffer(bytes.length);
    new Uint8Array(shared).set(bytes);
    const outcome = await this.#pool.run({ format, bytes: shared, whole: options.whole }, options);
    switch (outcome.ended) {
      case "reply": {
        const { reply } = outcome;
        if (reply.ok) return reply;
        const failure = reply.refused ?? (reply.overBudget ? "over-budget" : "failed");
        return { ok: false, failure, message: reply.message };
      }
      case "stopped":
        return { ok: false, failure: "failed", message: outcome.message };
      case "deadline":
        return {
          ok: false,
          failure: "over-budget",
          message: "no answer in time (too slow, or stopped at its heap cap)",
        };
    }
  }

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
