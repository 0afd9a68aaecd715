/** One deadline shared by every step of a visit; also the place a crashed page fails it. */
import { ApiError } from "../errors.ts";

export class Deadline implements Disposable {
  readonly #expired: Promise<never>;
  #fail!: (error: unknown) => void;
  #timer: ReturnType<typeof setTimeout>;
  #onAbort: () => void;
  readonly #signal: AbortSignal | undefined;
  readonly end: number;

  constructor(options: { timeoutMs: number; signal?: AbortSignal; what: string }) {
    this.end = Date.now() + options.timeoutMs;
    this.#expired = new Promise<never>((_, reject) => (this.#fail = reject));
    this.#expired.catch(() => {}); // observed through run(); never unhandled
    const timeout = () =>
      new ApiError(
        "EBRWSRTIMEOUT",
        `The browser could not finish ${options.what} within ${options.timeoutMs} ms.`,
      );
    this.#timer = setTimeout(() => this.#fail(timeout()), options.timeoutMs);
    this.#signal = options.signal;
    this.#onAbort = () => {
      const reason = options.signal?.reason;
      this.#fail(reason instanceof ApiError ? reason : timeout());
    };
    if (options.signal?.aborted) this.#onAbort();
    else options.signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /**
   * Milliseconds left, less `marginMs` so that a step's own timeout (which names what it
   * waited for) fires before the deadline's; at least 1 (puppeteer reads 0 as "no timeout").
   */
  remaining(marginMs = 0): number {
    return Math.max(1, this.end - Date.now() - marginMs);
  }

  /** Settles with `promise`, or rejects as soon as the deadline passes or fail() is called. */
  run<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => {}); // the loser of the race must not become an unhandled rejection
    return Promise.race([promise, this.#expired]);
  }

  /** Ends every pending and later run() with `error` (e.g. the page crashed). */
  fail(error: unknown): void {
    this.#fail(error);
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
  }
}
