/**
 * puppeteer's side of a CDP pipe whose far end is another thread (the server's, which owns
 * Lighthouse's Chromium): bytes come in as Chromium wrote them, NUL-separated messages.
 */
import type { ConnectionTransport } from "puppeteer-core";
import { concatBytes } from "../util/bytes.ts";

export class RelayTransport implements ConnectionTransport {
  onmessage?: (message: string) => void;
  onclose?: () => void;
  readonly #send: (message: string) => void;
  readonly #decoder = new TextDecoder();
  /** Bytes of a message not yet ended (each searched once: linear in the message). */
  #pending: Uint8Array[] = [];
  #closed = false;

  constructor(send: (message: string) => void) {
    this.#send = send;
  }

  send(message: string): void {
    if (!this.#closed) this.#send(message);
  }

  /** Bytes from the pipe: complete messages are dispatched, a partial one waits. */
  receive(chunk: Uint8Array): void {
    let start = 0;
    for (let end = chunk.indexOf(0); end >= 0; end = chunk.indexOf(0, start)) {
      this.#pending.push(chunk.subarray(start, end));
      const message = this.#decoder.decode(concatBytes(this.#pending));
      this.#pending = [];
      start = end + 1;
      this.onmessage?.(message);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
