/** The bounds on probing one request: a probe budget and a few concurrent probes per host. */

/** At most `total` probes; `take()` is false once they are spent. */
export class ProbeBudget {
  #left: number;
  constructor(total: number) {
    this.#left = total;
  }
  take(): boolean {
    if (this.#left <= 0) return false;
    this.#left--;
    return true;
  }
}

/** At most `perHost` tasks at once per host; the others wait in order. */
export class HostLimiter {
  #active = new Map<string, number>();
  #waiting = new Map<string, (() => void)[]>();
  constructor(readonly perHost: number) {}

  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const active = this.#active.get(host) ?? 0;
    if (active >= this.perHost) {
      // Wait for a finishing task to hand its slot over (the count stays as it is).
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(host) ?? [];
        queue.push(resolve);
        this.#waiting.set(host, queue);
      });
    } else {
      this.#active.set(host, active + 1);
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.get(host)?.shift();
      if (next) next();
      else this.#active.set(host, this.#active.get(host)! - 1);
    }
  }
}
