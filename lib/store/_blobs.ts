/**
 * Embedded blobs (cache entries, assets), indexed in Deno KV so that they survive a restart.
 * A small blob (most cached answers) is a KV value beside its index entry, written in the
 * same commit; a larger one (KV values are capped at 64 KiB) is a file under DATA_DIR. All
 * namespaces share one byte budget (which also caps how many blobs: ENTRY_COST), evicted
 * least recently used first; the index and its LRU order live in memory, so a read costs one
 * file or KV read, or none for a hot blob.
 *
 * A put returns once the blob is in memory (small) or its file is in place (large), and
 * indexed in memory; the KV write lands behind it, after the answer it belongs to is sent, in
 * one commit with the writes queued beside it (#write), and close() waits for it. Creating
 * even a 3 KB file costs 0.6-1 ms of this thread here, queueing a KV write microseconds. A
 * crash before the commit loses the blob (a cache miss, not a wrong answer): a large blob's
 * file then has no index entry, and the next start sweeps it away.
 */
import { join } from "node:path";
import { log } from "../util/log.ts";
import { firstUnreadable } from "./_kv_unreadable.ts";

const SYNC_READ_MAX = 256 * 1024;
/** Blobs up to this size are KV values: under the 64 KiB cap with room for its encoding. */
const KV_BLOB_MAX = 63 * 1024;
/** Small blobs also kept in memory (cached JSON answers): a hit then touches no file. */
const HOT_BLOB_MAX = 64 * 1024;
const HOT_TOTAL_MAX = 16 * 1024 * 1024;
/** How long the first queued KV write waits for others to share its commit. */
const WRITE_DELAY_MS = 20;
/** One commit's values at most: under KV's 800 KiB per atomic operation. */
const COMMIT_MAX_BYTES = 640 * 1024;
/** One commit's writes at most: KV takes 1,000 mutations an operation, a write makes two. */
const COMMIT_MAX_WRITES = 100;
/** What a blob's keys and index entry add to a commit, about. */
const KEY_BYTES = 512;
/**
 * What one blob costs beside its bytes: its index entry in memory and its KV rows, about
 * 0.8 KiB together. The budget allows maxBytes / ENTRY_COST blobs (MIN_ENTRIES at least), so
 * that tiny entries (cached errors) cannot cost many times the budget in memory and on disk.
 */
const ENTRY_COST = 1024;
const MIN_ENTRIES = 1024;

/** A KV write waiting in the queue: its mutations, and what to do once they landed. */
interface QueuedWrite {
  size: number;
  apply: (op: Deno.AtomicOperation) => void;
  landed?: () => void;
}

export interface BlobMeta {
  size: number;
  /** Epoch ms. */
  expiresAt: number;
  createdAt: number;
  contentType?: string;
  private?: boolean;
  filename?: string;
  /** Stored as a KV value (["blobdata", ns, id]), not as a file. */
  kv?: true;
}

/** An index entry as put() writes it (a damaged one may hold anything). */
function wellFormed(meta: unknown): meta is BlobMeta {
  if (typeof meta !== "object" || meta === null) return false;
  const { size, expiresAt, createdAt } = meta as Record<string, unknown>;
  return Number.isFinite(size) && (size as number) >= 0 && Number.isFinite(expiresAt) &&
    Number.isFinite(createdAt);
}

export class Blobs {
  #kv: Deno.Kv;
  #dir: string;
  #maxBytes: number;
  #maxEntries: number;
  /** `ns/id` -> meta, in least-recently-used-first order. */
  #index = new Map<string, BlobMeta>();
  #total = 0;
  /** `ns/id` -> bytes of small blobs, least recently used first; always a subset of #index. */
  #hot = new Map<string, Uint8Array>();
  #hotBytes = 0;
  /** Namespaces whose directory exists already. */
  #made = new Set<string>();
  /** KV writes asked for and not yet committed, in order (#write). */
  #queued: QueuedWrite[] = [];
  /** The commit of the queue under way, or the timer before it; settled() waits for it. */
  #flushing: Promise<void> | null = null;
  /** `ns/id` -> bytes of KV blobs whose commit has not landed yet (readable meanwhile). */
  #unsaved = new Map<string, Uint8Array>();

  private constructor(kv: Deno.Kv, dir: string, maxBytes: number) {
    this.#kv = kv;
    this.#dir = dir;
    this.#maxBytes = maxBytes;
    this.#maxEntries = Math.max(MIN_ENTRIES, Math.floor(maxBytes / ENTRY_COST));
  }

  static async open(options: { kv: Deno.Kv; dir: string; maxBytes: number }): Promise<Blobs> {
    const blobs = new Blobs(options.kv, options.dir, options.maxBytes);
    await blobs.#load();
    return blobs;
  }

  get totalBytes(): number {
    return this.#total;
  }

  async get(ns: string, id: string): Promise<{ bytes: Uint8Array; meta: BlobMeta } | null> {
    const name = `${ns}/${id}`;
    const meta = this.#index.get(name);
    if (!meta) return null;
    if (meta.expiresAt <= Date.now()) {
      await this.#remove(name);
      return null;
    }
    let bytes = this.#hot.get(name);
    if (bytes) {
      this.#touch(name, meta);
      this.#hot.delete(name);
      this.#hot.set(name, bytes);
      return { bytes, meta };
    }
    if (meta.kv) return await this.#getFromKv(ns, id, meta);
    try {
      // Small blobs are read synchronously: microseconds from the page cache, and no event-loop
      // turn to wait for under load. Large ones go through the thread pool.
      const path = join(this.#dir, name);
      bytes = meta.size <= SYNC_READ_MAX ? Deno.readFileSync(path) : await Deno.readFile(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      await this.#remove(name);
      return null;
    }
    // A file cut short (a crash before the disk had it all, a full disk) is a miss, not a
    // truncated answer; unless the file was replaced while it was read.
    if (bytes.byteLength !== meta.size) {
      if (this.#index.get(name) === meta) await this.#remove(name);
      return null;
    }
    // Still indexed (not evicted meanwhile): mark as most recently used.
    if (this.#index.get(name) === meta) {
      this.#touch(name, meta);
      this.#remember(name, bytes);
    }
    return { bytes, meta };
  }

  async #getFromKv(
    ns: string,
    id: string,
    meta: BlobMeta,
  ): Promise<{ bytes: Uint8Array; meta: BlobMeta } | null> {
    const name = `${ns}/${id}`;
    const bytes = this.#unsaved.get(name) ?? await this.#readKvBlob(ns, id);
    // Replaced or evicted while it was read: the index no longer points at these bytes.
    if (this.#index.get(name) !== meta) return bytes ? { bytes, meta } : null;
    if (!bytes) {
      await this.#remove(name);
      return null;
    }
    this.#touch(name, meta);
    this.#remember(name, bytes);
    return { bytes, meta };
  }

  /** A KV blob's bytes; one KV cannot read back (damaged) or not bytes is none: a miss. */
  async #readKvBlob(ns: string, id: string): Promise<Uint8Array | null> {
    let value: unknown;
    try {
      value = (await this.#kv.get(["blobdata", ns, id])).value;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      value = undefined;
    }
    if (value === null || value instanceof Uint8Array) return value;
    log.warn("damaged blob: a miss", { blob: `${ns}/${id}` });
    return null;
  }

  #touch(name: string, meta: BlobMeta): void {
    this.#index.delete(name);
    this.#index.set(name, meta);
  }

  #remember(name: string, bytes: Uint8Array): void {
    this.#forget(name);
    if (bytes.byteLength > HOT_BLOB_MAX) return;
    this.#hot.set(name, bytes);
    this.#hotBytes += bytes.byteLength;
    for (const [oldest, old] of this.#hot) {
      if (this.#hotBytes <= HOT_TOTAL_MAX) break;
      this.#hot.delete(oldest);
      this.#hotBytes -= old.byteLength;
    }
  }

  #forget(name: string): void {
    const bytes = this.#hot.get(name);
    if (!bytes) return;
    this.#hot.delete(name);
    this.#hotBytes -= bytes.byteLength;
  }

  /** Stores a blob; one larger than the whole budget is not stored (returns false). */
  async put(
    ns: string,
    id: string,
    value: {
      bytes: Uint8Array;
      ttlMs: number;
      contentType?: string;
      private?: boolean;
      filename?: string;
    },
  ): Promise<boolean> {
    const name = `${ns}/${id}`;
    const size = value.bytes.byteLength;
    if (size > this.#maxBytes) return false;
    const now = Date.now();
    const meta: BlobMeta = { size, expiresAt: now + value.ttlMs, createdAt: now };
    if (value.contentType !== undefined) meta.contentType = value.contentType;
    if (value.private !== undefined) meta.private = value.private;
    if (value.filename !== undefined) meta.filename = value.filename;
    if (size <= KV_BLOB_MAX) {
      meta.kv = true;
      // A large blob replaced by a small one: its file must not outlive its index entry.
      const replaced = this.#index.get(name);
      if (replaced && !replaced.kv) {
        try {
          Deno.removeSync(join(this.#dir, name));
        } catch { /* gone already */ }
      }
      this.#persist(ns, id, meta, value.bytes);
    } else {
      const path = join(this.#dir, name);
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      if (!this.#made.has(ns)) {
        await Deno.mkdir(join(this.#dir, ns), { recursive: true });
        this.#made.add(ns);
      }
      try {
        await Deno.writeFile(tmp, value.bytes);
        await Deno.rename(tmp, path);
      } catch (error) {
        // A half-written file (a full disk) would sit outside the budget until a restart.
        await Deno.remove(tmp).catch(() => {});
        throw error;
      }
      this.#persist(ns, id, meta, null);
    }
    const old = this.#index.get(name);
    if (old) {
      this.#total -= old.size;
      this.#index.delete(name);
    }
    this.#index.set(name, meta);
    this.#total += size;
    this.#remember(name, value.bytes);
    await this.#evict(name);
    return true;
  }

  /**
   * Writes the index entry, with the bytes of a KV blob, behind the answer (see the module
   * comment); a KV value of a replaced blob goes in the same commit.
   */
  #persist(ns: string, id: string, meta: BlobMeta, bytes: Uint8Array | null): void {
    const name = `${ns}/${id}`;
    if (bytes) this.#unsaved.set(name, bytes);
    else this.#unsaved.delete(name);
    this.#write({
      size: (bytes?.byteLength ?? 0) + KEY_BYTES,
      apply: (op) => {
        op.set(["blob", ns, id], meta);
        if (bytes) op.set(["blobdata", ns, id], bytes);
        else op.delete(["blobdata", ns, id]);
      },
      landed: () => {
        if (bytes && this.#unsaved.get(name) === bytes) this.#unsaved.delete(name);
      },
    });
  }

  /**
   * Queues a KV write. The queue is committed WRITE_DELAY_MS after its first write, in the
   * order asked (a blob evicted right after it was put stays deleted), as few commits as KV's
   * limits allow: a SQLite commit holds this thread ~0.4-1 ms whatever it carries (four blobs
   * in one cost 0.4 ms each, alone 1 ms), and the answer a write belongs to is sent first.
   */
  #write(write: QueuedWrite): void {
    this.#queued.push(write);
    this.#scheduleCommit();
  }

  #scheduleCommit(): void {
    if (this.#flushing || !this.#queued.length) return;
    this.#flushing = new Promise<void>((wait) => setTimeout(wait, WRITE_DELAY_MS))
      .then(() => this.#commitQueued())
      .finally(() => {
        this.#flushing = null;
        this.#scheduleCommit();
      });
  }

  async #commitQueued(): Promise<void> {
    while (this.#queued.length) {
      const batch: QueuedWrite[] = [];
      let size = 0;
      for (const write of this.#queued) {
        if (
          batch.length &&
          (size + write.size > COMMIT_MAX_BYTES || batch.length >= COMMIT_MAX_WRITES)
        ) break;
        batch.push(write);
        size += write.size;
      }
      this.#queued.splice(0, batch.length);
      const op = this.#kv.atomic();
      for (const write of batch) write.apply(op);
      try {
        await op.commit();
      } catch (error) {
        log.warn("blob index write failed", {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      for (const write of batch) write.landed?.();
    }
  }

  /** Resolves once every queued write has been committed (before the KV store closes). */
  async settled(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  async #evict(keep: string): Promise<void> {
    for (const name of this.#index.keys()) {
      if (this.#total <= this.#maxBytes && this.#index.size <= this.#maxEntries) return;
      if (name !== keep) await this.#remove(name);
    }
  }

  async #remove(name: string): Promise<void> {
    const meta = this.#index.get(name);
    if (!meta) return;
    this.#index.delete(name);
    this.#total -= meta.size;
    this.#forget(name);
    this.#unsaved.delete(name);
    const slash = name.indexOf("/");
    const [ns, id] = [name.slice(0, slash), name.slice(slash + 1)];
    // The KV deletes queue behind earlier writes (#write); a file goes at once, before a put
    // of the same name can write it again.
    this.#write({
      size: KEY_BYTES,
      apply: (op) => {
        op.delete(["blob", ns, id]);
        if (meta.kv) op.delete(["blobdata", ns, id]);
      },
    });
    if (!meta.kv) await Deno.remove(join(this.#dir, name)).catch(() => {});
  }

  /** Rebuilds the index, oldest first; drops expired entries and files that went missing. */
  async #load(): Promise<void> {
    const found = await this.#readIndex();
    found.sort((a, b) => a[1].createdAt - b[1].createdAt);
    const now = Date.now();
    for (const [name, meta] of found) {
      this.#index.set(name, meta);
      this.#total += meta.size;
      // A KV blob was committed with its index entry: it exists.
      const exists = meta.kv ||
        await Deno.stat(join(this.#dir, name)).then(() => true, () => false);
      if (meta.expiresAt <= now || !exists) await this.#remove(name);
    }
    await this.#evict("");
    await this.#sweepOrphans();
  }

  /**
   * The index entries in KV. One of another shape, or that KV cannot read back (which fails
   * the whole list), is dropped with its bytes: counted, it would break the budget's sum.
   */
  async #readIndex(): Promise<[string, BlobMeta][]> {
    const found: [string, BlobMeta][] = [];
    let cursor: string | undefined;
    for (;;) {
      const entries = this.#kv.list<unknown>({ prefix: ["blob"] }, { cursor });
      try {
        for await (const entry of entries) {
          if (wellFormed(entry.value)) {
            found.push([`${String(entry.key[1])}/${String(entry.key[2])}`, entry.value]);
          } else await this.#dropDamaged(entry.key);
          cursor = entries.cursor;
        }
        return found;
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        const unreadable = await firstUnreadable(this.#kv, ["blob"], 2, cursor);
        // Not one of this index's keys: the state is not as this code writes it.
        if (!unreadable) throw error;
        // The list starts again after the last entry read, past the one dropped.
        await this.#dropDamaged(unreadable);
      }
    }
  }

  async #dropDamaged(key: Deno.KvKey): Promise<void> {
    const [, ns, id] = key;
    log.warn("damaged blob index entry: dropped", { blob: `${String(ns)}/${String(id)}` });
    await this.#kv.atomic().delete(key).delete(["blobdata", ns!, id!]).commit();
  }

  /** Files with no index entry (a crash between write and index) would escape the budget. */
  async #sweepOrphans(): Promise<void> {
    let namespaces: string[];
    try {
      namespaces = [...Deno.readDirSync(this.#dir)].filter((e) => e.isDirectory).map((e) => e.name);
    } catch {
      return; // nothing written yet
    }
    for (const ns of namespaces) {
      for (const entry of [...Deno.readDirSync(join(this.#dir, ns))]) {
        if (!this.#index.has(`${ns}/${entry.name}`)) {
          await Deno.remove(join(this.#dir, ns, entry.name)).catch(() => {});
        }
      }
    }
  }
}
