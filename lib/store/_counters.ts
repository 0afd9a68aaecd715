/**
 * Embedded daily counters. One process owns a DATA_DIR, so the authoritative value lives in
 * memory (increments are atomic on the JS thread and cost no I/O on the request path) and is
 * written to Deno KV shortly after, and on close, so that it survives a restart.
 *
 * What a crash (SIGKILL, power loss) can lose is bounded: counts are written within
 * FLUSH_DELAY_MS (plus one KV commit), and a counter never holds more than `maxUnsaved`
 * unwritten counts: the increment past that waits for the write before it answers.
 */
import { log } from "../util/log.ts";

interface Counter {
  value: number;
  expiresAt: number;
}

interface Held extends Counter {
  /** The value last written to KV. */
  saved: number;
}

const FLUSH_DELAY_MS = 250;

const isCount = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function wellFormed(saved: unknown): saved is Counter {
  if (typeof saved !== "object" || saved === null) return false;
  const { value, expiresAt } = saved as Record<string, unknown>;
  return isCount(value) && Number.isFinite(expiresAt);
}

/** A saved count KV cannot read back or of another shape starts again (as in Redis). */
function damagedCounter(key: string): void {
  log.warn("damaged counter: started again", { counter: key });
}
const BATCH = 500;

export class Counters {
  #kv: Deno.Kv;
  #values = new Map<string, Held>();
  #loading = new Map<string, Promise<void>>();
  #dirty = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The last write started (writes run one after another). */
  #flushing: Promise<void> = Promise.resolve();
  /** A write queued behind the running one, not started yet: later counts join it. */
  #queued: Promise<void> | null = null;

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
  }

  /**
   * Adds one to `key` and returns the new value. With `maxUnsaved`, an increment that would
   * leave more unwritten counts than that on this counter is written before it returns.
   */
  async increment(key: string, expiresAt: number, maxUnsaved = Infinity): Promise<number> {
    if (!this.#values.has(key)) await this.#load(key);
    const now = Date.now();
    let counter = this.#values.get(key);
    if (!counter || counter.expiresAt <= now) {
      counter = { value: 0, saved: 0, expiresAt };
      this.#values.set(key, counter);
    }
    counter.value += 1;
    counter.expiresAt = expiresAt;
    const value = counter.value;
    this.#dirty.add(key);
    if (value - counter.saved > maxUnsaved) await this.#write();
    else this.#schedule();
    return value;
  }

  /** Loads a counter written before a restart; concurrent first increments share one read. */
  #load(key: string): Promise<void> {
    let pending = this.#loading.get(key);
    if (!pending) {
      pending = this.#kv.get<Counter>(["count", key]).then((entry) => {
        const saved = entry.value;
        if (saved !== null && !wellFormed(saved)) return damagedCounter(key);
        if (saved && saved.expiresAt > Date.now() && !this.#values.has(key)) {
          this.#values.set(key, {
            value: saved.value,
            saved: saved.value,
            expiresAt: saved.expiresAt,
          });
        }
      }, (error) => {
        if (!(error instanceof RangeError)) throw error;
        damagedCounter(key);
      }).finally(() => this.#loading.delete(key));
      this.#loading.set(key, pending);
    }
    return pending;
  }

  #schedule(): void {
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => void this.#write(), FLUSH_DELAY_MS);
  }

  /** A write that holds every count made so far: the queued one, else a new one. */
  #write(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#queued) {
      const queued: Promise<void> = this.#flushing.then(() => {
        // Started: counts from now on go to the next write.
        if (this.#queued === queued) this.#queued = null;
        return this.#flush();
      });
      this.#queued = queued;
      this.#flushing = queued;
    }
    return this.#queued;
  }

  /** Writes the dirty counters; never rejects (a failed write is retried with the next). */
  async #flush(): Promise<void> {
    const now = Date.now();
    const keys = [...this.#dirty];
    this.#dirty.clear();
    // Batched: one commit per BATCH counters instead of one write each.
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = this.#kv.atomic();
      const written: [Held, number][] = [];
      for (const key of keys.slice(i, i + BATCH)) {
        const counter = this.#values.get(key);
        if (!counter || counter.expiresAt <= now) continue;
        const { value, expiresAt } = counter;
        batch.set(["count", key], { value, expiresAt }, { expireIn: expiresAt - now });
        written.push([counter, value]);
      }
      try {
        await batch.commit();
        for (const [counter, value] of written) counter.saved = Math.max(counter.saved, value);
      } catch (error) {
        for (const key of keys.slice(i, i + BATCH)) this.#dirty.add(key);
        log.warn("counter write failed", {
          error: error instanceof Error ? error.message : String(error),
        });
        this.#schedule();
      }
    }
    // Yesterday's counters leave memory; KV expires its own copies.
    for (const [key, counter] of this.#values) {
      if (counter.expiresAt <= now && !this.#dirty.has(key)) this.#values.delete(key);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#loading.values());
    await this.#write();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
