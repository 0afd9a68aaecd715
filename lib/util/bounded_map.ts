/**
 * A Map that keeps at most `max` entries, least recently used first out: the one memo table
 * type for lookups keyed by what clients send (hosts, queries, selectors, header values).
 * A read refreshes its entry; a write past `max` drops the oldest.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  /**
   * `maxKeyLength`: a string key longer than this is never kept (set() drops it). What is kept
   * for a key often grows with it (a checked query, a compiled selector): a bound on entries
   * alone would let a client fill them with its longest keys.
   */
  constructor(readonly max: number, readonly options: { maxKeyLength?: number } = {}) {
    if (!(max >= 1)) throw new RangeError(`BoundedMap needs room for one entry, got ${max}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Without refreshing the entry. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): this {
    const { maxKeyLength } = this.options;
    if (maxKeyLength !== undefined && typeof key === "string" && key.length > maxKeyLength) {
      return this;
    }
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
