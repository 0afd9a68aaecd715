/**
 * The pool that converts documents off the main thread: at most `maxWorkers` conversions at
 * once, `maxQueue` waiting (EBUSY past that), and a heap cap per worker thread, so a hostile
 * document costs one capped thread and never the event loop or the process. A job answers by
 * its deadline or its caller's signal, whichever comes first; its worker slot is held until the
 * worker has really stopped (it reads its own deadline and a cancel flag), and one that neither
 * answers nor stops (stuck in one step, or stopped at its heap cap) is replaced GRACE_MS after.
 * The same discipline as the DOM workers' pool (DomWorkers), for another worker
 * module: conversions are rare and heavy, page work is frequent and light.
 */
import { Worker } from "node:worker_threads";
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { AdmissionPool, Busy, type Permit } from "../util/admission.ts";
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

/** What a worker is sent. */
export interface ConvertJob {
  format: DocumentFormat;
  /**
   * The document's bytes, in shared memory: a Uint8Array posted to a worker (cloned or even
   * transferred) took ~0.5 s per 2 MB here, a SharedArrayBuffer costs a copy.
   */
  bytes: SharedArrayBuffer;
  endsAt: number;
  /** Int32 flag: non-zero once the caller gave up. */
  cancel: SharedArrayBuffer;
}

/** What a worker answers. */
export type ConvertReply =
  | { ok: true; converted: Converted }
  | { ok: false; refused: RefusalReason | null; overBudget: boolean; message: string };

/** How a conversion ended when it gave no document. */
export type ConvertFailure = RefusalReason | "over-budget" | "failed";

export type ConvertOutcome =
  | { ok: true; converted: Converted }
  | { ok: false; failure: ConvertFailure; message: string };

const GRACE_MS = 2000;
const WORKER_URL = new URL("./_worker.ts", import.meta.url);

export class DocumentWorkers implements AsyncDisposable {
  /** Conversions holding a worker: `maxWorkers` at once, `maxQueue` in line, EBUSY past that. */
  readonly admission: AdmissionPool;
  readonly #heapMb: number;
  readonly #idle: Worker[] = [];
  readonly #running = new Set<Promise<void>>();
  readonly #cancels = new Set<Int32Array>();
  #workers = 0;
  #replaced = 0;

  constructor(options: DocumentWorkersOptions = {}) {
    this.admission = new AdmissionPool({
      running: options.maxWorkers ?? 1,
      waiting: options.maxQueue ?? 8,
      busyMessage: (s) =>
        `The document converters are saturated (${s.maxRunning} converting, ` +
        `${s.waiting} waiting); retry later.`,
      closedError: () =>
        new ApiError("EBUSY", "The document converters are shutting down; retry later.", {
          headers: { "retry-after": "2" },
        }),
    });
    this.#heapMb = options.heapMb ?? 256;
  }

  stats(): { busy: number; queued: number; workers: number; replaced: number } {
    return {
      busy: this.#running.size,
      queued: this.admission.state().waiting,
      workers: this.#workers,
      replaced: this.#replaced,
    };
  }

  /**
   * Converts `bytes` by `endsAt` (epoch ms). Resolves with the outcome (a refusal is an outcome,
   * not an error); rejects with EBUSY when saturated, or the signal's reason when it aborts.
   */
  async convert(
    format: DocumentFormat,
    bytes: Uint8Array,
    options: { endsAt: number; signal?: AbortSignal },
  ): Promise<ConvertOutcome> {
    const outcome = this.admission.admit(options.signal);
    if (outcome instanceof Busy) throw outcome.error();
    const place = await outcome;
    return await this.#runOn(place, { format, bytes, endsAt: options.endsAt }, options.signal);
  }

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
    return new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: this.#heapMb } });
  }

  #retire(worker: Worker): void {
    this.#workers--;
    worker.terminate().catch(() => {});
  }

  /** Runs one conversion on an idle worker or a new one; its place is held until it stopped. */
  #runOn(
    place: Permit,
    job: { format: DocumentFormat; bytes: Uint8Array; endsAt: number },
    signal?: AbortSignal,
  ): Promise<ConvertOutcome> {
    const worker = this.#idle.pop() ?? this.#spawn();
    worker.ref();
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    this.#cancels.add(flag);
    let settle!: (outcome: ConvertOutcome | { error: unknown }) => void;
    const answered = new Promise<ConvertOutcome | { error: unknown }>((resolve) =>
      settle = resolve
    );
    const failed = (failure: ConvertFailure, message: string) =>
      settle({ ok: false, failure, message });

    const slot = new Promise<void>((freed) => {
      let watchdog: ReturnType<typeof setTimeout>;
      const finish = (keep: boolean) => {
        clearTimeout(watchdog);
        clearTimeout(deadline);
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
      const onMessage = (reply: ConvertReply) => {
        finish(true);
        if (reply.ok) settle(reply);
        else failed(reply.refused ?? (reply.overBudget ? "over-budget" : "failed"), reply.message);
      };
      const onError = (error: unknown) => {
        finish(false);
        failed("failed", error instanceof Error ? error.message : String(error));
      };
      const onExit = () => {
        finish(false);
        failed("failed", "the conversion worker stopped (its heap cap, or a crash)");
      };
      const giveUp = () => {
        log.warn("document worker did not stop at its deadline; replacing it", {});
        this.#replaced++;
        finish(false);
      };
      // The caller is answered at the deadline; the worker is given GRACE_MS more to stop.
      const stop = () => {
        Atomics.store(flag, 0, 1);
        clearTimeout(watchdog);
        watchdog = setTimeout(giveUp, GRACE_MS);
      };
      const abort = () => {
        stop();
        settle({ error: signal!.reason });
      };
      const deadline = setTimeout(() => {
        stop();
        failed("over-budget", "the conversion ran out of time");
      }, Math.max(0, job.endsAt - Date.now()));
      watchdog = setTimeout(giveUp, Math.max(0, job.endsAt - Date.now()) + GRACE_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      if (signal?.aborted) abort();
      else signal?.addEventListener("abort", abort, { once: true });
      const bytes = new SharedArrayBuffer(job.bytes.length);
      new Uint8Array(bytes).set(job.bytes);
      worker.postMessage({ ...job, bytes, cancel } satisfies ConvertJob);
    });
    this.#running.add(slot);
    slot.finally(() => {
      this.#running.delete(slot);
      this.#cancels.delete(flag);
    });
    return answered.then((outcome) => {
      if ("error" in outcome) throw outcome.error;
      return outcome;
    });
  }
}
