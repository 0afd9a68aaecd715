/**
 * How many requests the API is answering right now. Page work reads it to know when a request
 * is alone: then nothing else waits for the main thread and a worker's hop is pure cost.
 */
export class InFlight {
  #count = 0;

  /** Counts a request until the returned handle is disposed (`using`). */
  enter(): Disposable {
    this.#count++;
    let left = false;
    return {
      [Symbol.dispose]: () => {
        if (left) return;
        left = true;
        this.#count--;
      },
    };
  }

  get count(): number {
    return this.#count;
  }
}
