/**
 * One deadline for one operation (a request, a fetch, a dial, a browser visit): a timer, an
 * abort signal, and the error that ends it. The timer is armed on first use (`signal`, `run()`,
 * `fail()`), for the time left, so work that never starts never pays for a timer. An outer
 * signal's ApiError (the request's ETIMEOUT) is kept as the reason, so the caller sees the
 * outer cause; anything else becomes this deadline's own error. Models: denoland/std's
 * `deadline`/`abortable`, astral's per-call deadline.
 */
import { isApiError } from "./errors.ts";

export interface DeadlineOptions {
  timeoutMs: number;
  /** The error this deadline ends with when its time is up (e.g. an ETIMEOUT naming the URL). */
  error: () => unknown;
  /** An outer signal (a request's deadline) that ends this one too. */
  signal?: AbortSignal;
  /** When the time started, on performance.now()'s clock; default now. */
  startedAt?: number;
}

export class Deadline implements Disposable {
  readonly #options: DeadlineOptions;
  readonly #endsAt: number;
  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #onAbort: (() => void) | undefined;
  #disposed = false;

  constructor(options: DeadlineOptions) {
    this.#options = options;
    this.#endsAt = (options.startedAt ?? performance.now()) + options.timeoutMs;
  }

  /** Aborts when the time is up, the outer signal aborts, or fail() is called. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = this.#controller = new AbortController();
    const { error, signal: outer } = this.#options;
    this.#onAbort = () => controller.abort(isApiError(outer?.reason) ? outer!.reason : error());
    if (outer?.aborted) this.#onAbort();
    else if (!this.#disposed) outer?.addEventListener("abort", this.#onAbort, { once: true });
    if (!controller.signal.aborted && !this.#disposed) {
      const end = () => controller.abort(error());
      this.#timer = setTimeout(end, Math.max(0, this.#endsAt - performance.now()));
    }
    return controller.signal;
  }

  /** Why it ended (its error, the outer ApiError, fail()'s), or null while it runs. */
  get reason(): unknown {
    return this.#controller?.signal.aborted ? this.#controller.signal.reason : null;
  }

  /**
   * Milliseconds left, less `marginMs` so that a step's own timeout (which names what it
   * waited for) fires before the deadline's; at least 1 (puppeteer reads 0 as "no timeout").
   */
  remaining(marginMs = 0): number {
    return Math.max(1, this.#endsAt - performance.now() - marginMs);
  }

  /** Settles with `promise`, or rejects as soon as the deadline ends. */
  run<T>(promise: Promise<T>): Promise<T> {
    return abortable(promise, this.signal);
  }

  /** Ends the deadline now with `error` (e.g. the page crashed): every run() rejects with it. */
  fail(error: unknown): void {
    const signal = this.signal;
    if (!signal.aborted) this.#controller!.abort(error);
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    if (this.#onAbort) this.#options.signal?.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts. The promise
 * itself is not cancelled; its late rejection is observed, never unhandled.
 */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * True when `promise` fulfils within `ms`; false when it rejects or takes longer (e.g. a
 * browser or context that will not close, which the caller then kills).
 */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then(() => true, () => false),
    new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms)),
  ]).finally(() => clearTimeout(timer));
}
