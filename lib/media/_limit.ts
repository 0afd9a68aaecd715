/** The bounds on probing one request: a probe budget and a few concurrent probes per host. */
import { AdmissionPool } from "../util/admission.ts";

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

/** At most `perHost` tasks at once per host; the others wait in order (the budget bounds them). */
export class HostLimiter {
  #pools = new Map<string, AdmissionPool>();
  constructor(readonly perHost: number) {}

  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    let pool = this.#pools.get(host);
    if (!pool) {
      this.#pools.set(host, pool = new AdmissionPool({ running: this.perHost, waiting: Infinity }));
    }
    using _place = await pool.enter();
    return await task();
  }
}
