/**
 * Embedded daily counters. One process owns a DATA_DIR, so the authoritative value lives in
 * memory (increments are atomic on the JS thread and cost no I/O on the request path) and is
 * written to Deno KV shortly after, and on close, so that it survives a restart.
 */

interface Counter {
  value: number;
  expiresAt: number;
}

const FLUSH_DELAY_MS = 250;
const BATCH = 500;

export class Counters {
  #kv: Deno.Kv;
  #values = new Map<string, Counter>();
  #loading = new Map<string, Promise<void>>();
  #dirty = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
  }

  async increment(key: string, expiresAt: number): Promise<number> {
    if (!this.#values.has(key)) await this.#load(key);
    const now = Date.now();
    let counter = this.#values.get(key);
    if (!counter || counter.expiresAt <= now) {
      counter = { value: 0, expiresAt };
      this.#values.set(key, counter);
    }
    counter.value += 1;
    counter.expiresAt = expiresAt;
    this.#dirty.add(key);
    this.#schedule();
    return counter.value;
  }

  /** Loads a counter written before a restart; concurrent first increments share one read. */
  #load(key: string): Promise<void> {
    let pending = this.#loading.get(key);
    if (!pending) {
      pending = this.#kv.get<Counter>(["count", key]).then((entry) => {
        const saved = entry.value;
        if (saved && saved.expiresAt > Date.now() && !this.#values.has(key)) {
          this.#values.set(key, { value: saved.value, expiresAt: saved.expiresAt });
        }
      }).finally(() => this.#loading.delete(key));
      this.#loading.set(key, pending);
    }
    return pending;
  }

  #schedule(): void {
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flushing = this.#flushing.then(() => this.#flush());
    }, FLUSH_DELAY_MS);
  }

  async #flush(): Promise<void> {
    const now = Date.now();
    const keys = [...this.#dirty];
    this.#dirty.clear();
    // Batched: one commit per BATCH counters instead of one write each.
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = this.#kv.atomic();
      for (const key of keys.slice(i, i + BATCH)) {
        const counter = this.#values.get(key);
        if (!counter || counter.expiresAt <= now) continue;
        batch.set(["count", key], { ...counter }, { expireIn: counter.expiresAt - now });
      }
      await batch.commit();
    }
    // Yesterday's counters leave memory; KV expires its own copies.
    for (const [key, counter] of this.#values) {
      if (counter.expiresAt <= now) this.#values.delete(key);
    }
  }

  async close(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#flushing;
    await Promise.all(this.#loading.values());
    await this.#flush();
  }
}
