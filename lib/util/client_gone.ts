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
