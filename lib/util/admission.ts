/**
 * Admission to a bounded resource: at most `running` holders at once, at most `waiting` callers
 * in line, and a typed Busy outcome past that (which becomes EBUSY with its Retry-After for
 * callers that answer a request). Every long-lived part that runs costly work (browser pages,
 * DOM workers, technology detection, Lighthouse runs, palette decodes, probes per host) admits
 * its jobs through one of these, so all of them behave alike when full and when closing.
 */
import { ApiError } from "./errors.ts";

export interface AdmissionOptions {
  /** Holders at once. */
  running: number;
  /** Callers waiting for a place; one more is Busy. Default 0 (no line). */
  waiting?: number;
  /** Seconds a refused client is told to wait (Retry-After); default 2. */
  retryAfterSeconds?: number;
  /** The EBUSY message for a refused caller, from the pool's state when it refused. */
  busyMessage?: (state: AdmissionState) => string;
  /** What waiters and later callers are refused with once the pool is closed. */
  closedError?: () => unknown;
}

export interface AdmissionState {
  /** Places held now (a place is held until its permit is released). */
  running: number;
  /** Callers in line. */
  waiting: number;
  maxRunning: number;
  maxWaiting: number;
}

/** A held place: release it once (later calls do nothing); `using` releases it too. */
export interface Permit extends Disposable {
  release(): void;
}

/** The outcome of a full pool: every place taken and the line full. */
export class Busy {
  constructor(
    readonly state: AdmissionState,
    readonly retryAfterSeconds: number,
    readonly message: string,
  ) {}

  /** EBUSY with its Retry-After, for a caller that answers a request. */
  error(): ApiError {
    return new ApiError("EBUSY", this.message, {
      headers: { "retry-after": String(this.retryAfterSeconds) },
    });
  }
}

interface Waiter {
  resolve: (permit: Permit) => void;
  reject: (error: unknown) => void;
}

export class AdmissionPool implements AsyncDisposable {
  readonly #maxRunning: number;
  readonly #maxWaiting: number;
  readonly #retryAfterSeconds: number;
  readonly #busyMessage: (state: AdmissionState) => string;
  readonly #closedError: () => unknown;
  readonly #line: Waiter[] = [];
  #running = 0;
  #closed = false;
  /** Resolves the current settled() promise once no place is held. */
  #drained: PromiseWithResolvers<void> | null = null;

  constructor(options: AdmissionOptions) {
    this.#maxRunning = options.running;
    this.#maxWaiting = options.waiting ?? 0;
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 2;
    this.#busyMessage = options.busyMessage ??
      ((s) => `Saturated (${s.running} running, ${s.waiting} waiting); retry later.`);
    this.#closedError = options.closedError ??
      (() => new ApiError("EBUSY", "The service is closing; retry later."));
  }

  state(): AdmissionState {
    return {
      running: this.#running,
      waiting: this.#line.length,
      maxRunning: this.#maxRunning,
      maxWaiting: this.#maxWaiting,
    };
  }

  /**
   * A place at once when one is free (so the caller's state shows it at once), else a place in
   * line (rejecting with the signal's reason if it aborts first, or the closed error), else
   * Busy. A closed pool rejects.
   */
  admit(signal?: AbortSignal): Permit | Busy | Promise<Permit> {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#running < this.#maxRunning) {
      this.#running++;
      return this.#permit();
    }
    if (this.#line.length >= this.#maxWaiting) {
      const state = this.state();
      return new Busy(state, this.#retryAfterSeconds, this.#busyMessage(state));
    }
    return new Promise<Permit>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (permit) => {
          signal?.removeEventListener("abort", abort);
          resolve(permit);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", abort);
          reject(error);
        },
      };
      const abort = () => {
        const at = this.#line.indexOf(waiter);
        if (at !== -1) this.#line.splice(at, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.#line.push(waiter);
    });
  }

  /** admit() for callers that answer a request: Busy is thrown as EBUSY with Retry-After. */
  async enter(signal?: AbortSignal): Promise<Permit> {
    const outcome = this.admit(signal);
    if (outcome instanceof Busy) throw outcome.error();
    return await outcome;
  }

  /** Resolves once no place is held (every permit released). */
  settled(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    this.#drained ??= Promise.withResolvers<void>();
    return this.#drained.promise;
  }

  /** Refuses the line and every later caller, then waits until every place is released. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#line.splice(0)) waiter.reject(this.#closedError());
    await this.settled();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #permit(): Permit {
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.#release();
    };
    return { release, [Symbol.dispose]: release };
  }

  /** A freed place goes straight to the next in line, so `running` never dips under load. */
  #release(): void {
    const next = this.#line.shift();
    if (next) return next.resolve(this.#permit());
    this.#running--;
    if (this.#running === 0 && this.#drained) {
      this.#drained.resolve();
      this.#drained = null;
    }
  }
}
