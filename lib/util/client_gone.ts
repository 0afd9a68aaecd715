/**
 * The client went away (its connection closed) before its answer: what it waited for is
 * abandoned, and nothing can be answered. Not a contract error: no client reads it.
 */
export class ClientGone extends Error {
  constructor() {
    super("The client went away before its answer.");
    this.name = "ClientGone";
  }
}

/** The status its answer is logged and counted with (nginx's "client closed request"). */
export const CLIENT_GONE_STATUS = 499;

/**
 * A wait a request's client can end: `signal` aborts with a ClientGone once `client` (the
 * request's signal) aborts, or when the waiter calls `leave()`. Disposing it stops listening.
 */
export class ClientWait implements Disposable {
  readonly #controller = new AbortController();
  readonly #client: AbortSignal | undefined;
  readonly #gone = () => this.leave();

  constructor(client?: AbortSignal) {
    this.#client = client;
    client?.addEventListener("abort", this.#gone, { once: true });
    if (client?.aborted) this.leave();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Ends the wait as the client's going would. */
  leave(): void {
    this.#controller.abort(new ClientGone());
  }

  [Symbol.dispose](): void {
    this.#client?.removeEventListener("abort", this.#gone);
  }
}
