/**
 * A bounded pool of worker threads running one kind of job each, off the event loop: admission
 * through an AdmissionPool (EBUSY past its line), a heap cap per thread, idle threads reused, and
 * a thread's place held until it has really stopped, not only until its caller gave up. A busy
 * thread cannot be stopped from outside, so it reads its job's deadline and a cancel flag
 * (shared memory) inside its loops; one that is silent GRACE_MS past that (stuck in one step, or
 * stopped at its heap cap: Deno's worker then emits nothing) is terminated and replaced.
 *
 * A worker program receives a PoolJob and answers with one message; the pool's owner reads the
 * JobOutcome: that message, the thread's end, or the deadline.
 */
import { parentPort, Worker } from "node:worker_threads";
import { type AdmissionOptions, AdmissionPool, Busy, type Permit } from "./admission.ts";
import { log } from "./log.ts";

export interface WorkerPoolOptions {
  /** The worker program. */
  module: URL;
  /** What the log calls one of its threads ("DOM worker"). */
  name: string;
  /** Jobs at once (one thread each), jobs in line, and their EBUSY. */
  admission: AdmissionOptions;
  /** Old-generation heap one thread may hold, in MB. */
  heapMb: number;
  /** Young generation one thread may grow to, in MB; V8's default when absent. */
  youngMb?: number;
  /** A job's time when its caller names no deadline, in ms. */
  jobTimeoutMs?: number;
}

/** What a worker program is sent. */
export interface PoolJob<Task> {
  task: Task;
  /** Epoch ms (Date.now(): a worker's performance.now() has another origin). */
  endsAt: number;
  /** Int32 flag: non-zero once the caller gave up or the pool closes. */
  cancel: SharedArrayBuffer;
}

/** How a job ended, for its owner to map to its own answer. */
export type JobOutcome<Reply> =
  /** The worker's answer. */
  | { ended: "reply"; reply: Reply }
  /** The thread failed or exited without answering (it is replaced). */
  | { ended: "stopped"; message: string }
  /** No answer by the deadline: too slow, stuck, or stopped at its heap cap. */
  | { ended: "deadline" };

export interface WorkerPoolStats {
  /** Jobs holding a thread (their callers may have given up already). */
  busy: number;
  queued: number;
  /** Threads alive, busy or idle. */
  workers: number;
  /** Threads given up on: silent past their deadline (stuck, or stopped at their heap cap). */
  replaced: number;
}

/** How long past its deadline (or its caller's end) a silent thread gets before it is replaced. */
export const GRACE_MS = 2000;
/**
 * How long a new thread may take to load its program before it counts as stuck: loading is not
 * the job's (a cold start on a busy machine took seconds), so its grace starts once it is ready.
 */
const LOAD_MS = 30_000;
/** What serveJobs() posts once its program is loaded. */
const READY = "worker-pool:ready";

/**
 * A worker program's side of the pool: says it is ready, then answers each PoolJob with what
 * `perform` returns (one message a job).
 */
export function serveJobs<Task, Reply>(
  perform: (job: PoolJob<Task>) => Reply | Promise<Reply>,
): void {
  parentPort!.on("message", async (job: PoolJob<Task>) => {
    parentPort!.postMessage(await perform(job));
  });
  parentPort!.postMessage(READY);
}

export class WorkerPool<Task, Reply> implements AsyncDisposable {
  /** Jobs holding a thread: at most `running` at once, `waiting` in line, Busy past that. */
  readonly admission: AdmissionPool;
  readonly #options: WorkerPoolOptions;
  readonly #idle: Worker[] = [];
  /** Jobs holding a place, by the promise that settles when the place is free again. */
  readonly #running = new Set<Promise<void>>();
  /** The cancel flags of running jobs: close() raises them all. */
  readonly #cancels = new Set<Int32Array>();
  /** Threads whose program has loaded (serveJobs said so). */
  readonly #ready = new WeakSet<Worker>();
  #workers = 0;
  #replaced = 0;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
    this.admission = new AdmissionPool(options.admission);
  }

  /**
   * Runs `task` on a thread, by `endsAt` (epoch ms; default: the pool's job timeout from when it
   * starts). Takes a thread at once when one is free, so that stats() shows the job right away.
   * Rejects with EBUSY when the pool is full, with the signal's reason when it aborts first, and
   * with the pool's closed error once closed.
   */
  run(
    task: Task,
    options: { endsAt?: number; signal?: AbortSignal } = {},
  ): Promise<JobOutcome<Reply>> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const outcome = this.admission.admit(signal);
    if (outcome instanceof Busy) return Promise.reject(outcome.error());
    const start = (place: Permit) => {
      const endsAt = options.endsAt ?? Date.now() + (this.#options.jobTimeoutMs ?? 28_000);
      return this.#runOn(place, { task, endsAt }, signal);
    };
    return outcome instanceof Promise ? outcome.then(start) : start(outcome);
  }

  stats(): WorkerPoolStats {
    return {
      busy: this.#running.size,
      queued: this.admission.state().waiting,
      workers: this.#workers,
      replaced: this.#replaced,
    };
  }

  /** Resolves once no job holds a thread (every cancelled one has stopped or been replaced). */
  async settled(): Promise<void> {
    while (this.#running.size) await Promise.all(this.#running);
  }

  /** Refuses new jobs and those in line, stops the running ones, ends every thread. */
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
    const worker = new Worker(this.#options.module, {
      resourceLimits: {
        maxOldGenerationSizeMb: this.#options.heapMb,
        maxYoungGenerationSizeMb: this.#options.youngMb,
      },
    });
    const onReady = (message: unknown) => {
      if (message !== READY) return;
      this.#ready.add(worker);
      worker.off("message", onReady);
    };
    worker.on("message", onReady);
    return worker;
  }

  /** Gives a thread up: it is no longer counted, and is terminated if it can be. */
  #retire(worker: Worker): void {
    this.#workers--;
    worker.terminate().catch(() => {});
  }

  /**
   * Runs one job on an idle thread or a new one. Its caller is answered by the reply, the
   * thread's end, the deadline or the signal, whichever comes first; its place is held until the
   * thread answered, or was replaced GRACE_MS after the deadline (or the abort).
   */
  #runOn(
    place: Permit,
    job: { task: Task; endsAt: number },
    signal?: AbortSignal,
  ): Promise<JobOutcome<Reply>> {
    const worker = this.#idle.pop() ?? this.#spawn();
    worker.ref();
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    this.#cancels.add(flag);
    let answer!: { resolve: (outcome: JobOutcome<Reply>) => void; reject: (e: unknown) => void };
    const answered = new Promise<JobOutcome<Reply>>((resolve, reject) =>
      answer = { resolve, reject }
    );

    const slot = new Promise<void>((freed) => {
      let watchdog: ReturnType<typeof setTimeout>;
      /** Past its grace while still loading its program: the grace starts once it is ready. */
      let loading = false;
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
      const onMessage = (reply: Reply | typeof READY) => {
        if (reply === READY) {
          if (loading) {
            clearTimeout(watchdog);
            watchdog = setTimeout(giveUp, GRACE_MS);
          }
          loading = false;
          return;
        }
        finish(true);
        answer.resolve({ ended: "reply", reply });
      };
      const onError = (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        log.warn(`${this.#options.name} failed`, { error: message });
        finish(false);
        answer.resolve({ ended: "stopped", message });
      };
      const onExit = () => {
        finish(false);
        answer.resolve({ ended: "stopped", message: `the ${this.#options.name} stopped` });
      };
      const giveUp = () => {
        if (!loading && !this.#ready.has(worker)) {
          loading = true;
          watchdog = setTimeout(giveUp, LOAD_MS);
          return;
        }
        log.warn(`${this.#options.name} did not stop at its deadline; replacing it`, {});
        this.#replaced++;
        finish(false);
      };
      // The thread is told to stop and given GRACE_MS to do so.
      const stop = () => {
        Atomics.store(flag, 0, 1);
        if (loading) return;
        clearTimeout(watchdog);
        watchdog = setTimeout(giveUp, GRACE_MS);
      };
      const abort = () => {
        stop();
        answer.reject(signal!.reason);
      };
      const deadline = setTimeout(() => {
        stop();
        answer.resolve({ ended: "deadline" });
      }, Math.max(0, job.endsAt - Date.now()));
      watchdog = setTimeout(giveUp, Math.max(0, job.endsAt - Date.now()) + GRACE_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      if (signal?.aborted) abort();
      else signal?.addEventListener("abort", abort, { once: true });
      worker.postMessage({ ...job, cancel } satisfies PoolJob<Task>);
    });
    this.#running.add(slot);
    slot.finally(() => {
      this.#running.delete(slot);
      this.#cancels.delete(flag);
    });
    return answered;
  }
}
