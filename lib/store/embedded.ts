/**
 * Embedded state in DATA_DIR with no service to install: Deno KV (`state.kv`) for keys,
 * counters, the server secret, the blob index and small blobs; files under `blobs/` for cache
 * entries and assets over 63 KiB (KV values are capped at 64 KiB; see _blobs.ts). One process
 * per DATA_DIR (lockDataDir refuses a second); use Redis for several. The keys alone
 * (`EmbeddedKeys`, for the keys CLI) may be opened beside it: they live in KV only.
 *
 * A value KV cannot read back (its bytes damaged) or of another shape is handled as in Redis:
 * a blob is a miss, a counter starts again, the server secret is made anew, a key record is
 * EUNAVAILABLE naming it (see `damaged`). A blob's index entry so damaged is dropped at start,
 * the rest kept; only a file SQLite itself cannot read refuses the start, naming DATA_DIR.
 */
import { join } from "node:path";
import { Blobs } from "./_blobs.ts";
import { onceUntilSuccess } from "./_once.ts";
import { Counters } from "./_counters.ts";
import { log } from "../util/log.ts";
import { KvKeys } from "./_kv_keys.ts";
import { type DataDirLock, DataDirTaken, lockDataDir } from "./_lock.ts";
import {
  checkId,
  type KeyRecord,
  maxUnsaved,
  type Store,
  type StoredAsset,
  type StoreHealth,
} from "./types.ts";

/**
 * DATA_DIR's KV, made if need be; with `exclusive`, DATA_DIR is locked first (lockDataDir), so
 * that a refused process touches nothing.
 */
async function openKv(
  dataDir: string,
  exclusive: boolean,
): Promise<{ kv: Deno.Kv; lock: DataDirLock | null }> {
  try {
    await Deno.mkdir(dataDir, { recursive: true });
  } catch (error) {
    throw cannotHold(dataDir, error);
  }
  let lock: DataDirLock | null = null;
  try {
    if (exclusive) lock = lockDataDir(dataDir);
  } catch (error) {
    throw error instanceof DataDirTaken ? error : cannotHold(dataDir, error);
  }
  try {
    return { kv: await Deno.openKv(join(dataDir, "state.kv")), lock };
  } catch (error) {
    lock?.release();
    throw cannotHold(dataDir, error);
  }
}

function cannotHold(dataDir: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`DATA_DIR "${dataDir}" cannot hold the state: ${reason}`, { cause: error });
}

/**
 * The keys alone, on DATA_DIR's KV (the keys CLI): beside a running service, which reads keys
 * from KV on every use, so it sees what this adds or revokes at once.
 */
export class EmbeddedKeys extends KvKeys {
  readonly #kv: Deno.Kv;

  private constructor(kv: Deno.Kv) {
    super(kv);
    this.#kv = kv;
  }

  static async open(dataDir: string): Promise<EmbeddedKeys> {
    return new EmbeddedKeys((await openKv(dataDir, false)).kv);
  }

  close(): Promise<void> {
    this.#kv.close();
    return Promise.resolve();
  }
}

export class EmbeddedStore implements Store {
  readonly kind = "embedded" as const;
  #kv: Deno.Kv;
  #blobs: Blobs;
  #counters: Counters;
  #keys: KvKeys;
  #lock: DataDirLock;
  readonly #secret = onceUntilSuccess(() => this.#loadSecret());
  #closed = false;

  private constructor(kv: Deno.Kv, blobs: Blobs, lock: DataDirLock) {
    this.#kv = kv;
    this.#blobs = blobs;
    this.#counters = new Counters(kv);
    this.#keys = new KvKeys(kv);
    this.#lock = lock;
  }

  /** Throws when DATA_DIR cannot hold the state, or another process has it. */
  static async open(options: { dataDir: string; maxBytes: number }): Promise<EmbeddedStore> {
    const { kv, lock } = await openKv(options.dataDir, true);
    try {
      const blobs = await Blobs.open({
        kv,
        dir: join(options.dataDir, "blobs"),
        maxBytes: options.maxBytes,
      });
      return new EmbeddedStore(kv, blobs, lock!);
    } catch (error) {
      kv.close();
      lock!.release();
      // A file SQLite cannot read (damaged pages): as when it cannot be opened.
      if (!(error instanceof RangeError)) throw cannotHold(options.dataDir, error);
      // A value KV cannot read back under a key the index never writes (see Blobs).
      throw new Error(
        `DATA_DIR "${options.dataDir}" holds a damaged cache index in state.kv: ${error.message}`,
        { cause: error },
      );
    }
  }

  /** Bytes of cache entries and assets on disk (bounded by CACHE_MAX_BYTES). */
  get blobBytes(): number {
    return this.#blobs.totalBytes;
  }

  increment(key: string, expiresAt: number, options: { limit?: number } = {}): Promise<number> {
    return this.#counters.increment(key, expiresAt, maxUnsaved(options.limit));
  }

  async getCache(key: string): Promise<Uint8Array | null> {
    checkId("cache", key);
    return (await this.#blobs.get("cache", key))?.bytes ?? null;
  }

  async setCache(key: string, entry: { value: Uint8Array; ttlMs: number }): Promise<void> {
    checkId("cache", key);
    await this.#blobs.put("cache", key, { bytes: entry.value, ttlMs: entry.ttlMs });
  }

  async putAsset(id: string, asset: StoredAsset & { ttlMs: number }): Promise<void> {
    checkId("asset", id);
    // A cache entry too large to keep is a future miss; an asset's URL is handed out now.
    const stored = await this.#blobs.put("asset", id, {
      bytes: asset.bytes,
      ttlMs: asset.ttlMs,
      contentType: asset.contentType,
      private: asset.private,
      filename: asset.filename,
    });
    if (!stored) {
      throw new Error(
        `The asset of ${asset.bytes.byteLength} bytes is larger than CACHE_MAX_BYTES: not hosted.`,
      );
    }
  }

  async getAsset(id: string): Promise<StoredAsset | null> {
    checkId("asset", id);
    const found = await this.#blobs.get("asset", id);
    if (!found) return null;
    return {
      bytes: found.bytes,
      contentType: found.meta.contentType ?? "application/octet-stream",
      private: found.meta.private ?? false,
      ...(found.meta.filename ? { filename: found.meta.filename } : {}),
    };
  }

  addKey(record: KeyRecord): Promise<void> {
    return this.#keys.addKey(record);
  }

  findKeyByHash(hash: string): Promise<KeyRecord | null> {
    return this.#keys.findKeyByHash(hash);
  }

  findKeyById(id: string): Promise<KeyRecord | null> {
    return this.#keys.findKeyById(id);
  }

  listKeys(): Promise<KeyRecord[]> {
    return this.#keys.listKeys();
  }

  revokeKey(name: string): Promise<boolean> {
    return this.#keys.revokeKey(name);
  }

  serverSecret(): Promise<Uint8Array> {
    return this.#secret();
  }

  async #loadSecret(): Promise<Uint8Array> {
    const key = ["secret"];
    let existing: Deno.KvEntryMaybe<unknown>;
    try {
      existing = await this.#kv.get(key);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // It only keys the cache: made anew, the cost is a cold cache.
      log.warn("damaged server secret: made anew");
      const fresh = crypto.getRandomValues(new Uint8Array(32));
      await this.#kv.set(key, fresh);
      return fresh;
    }
    const value = existing.value;
    if (value instanceof Uint8Array && value.byteLength === 32) return value;
    if (value !== null) log.warn("damaged server secret: made anew");
    const fresh = crypto.getRandomValues(new Uint8Array(32));
    const result = await this.#kv.atomic().check(existing).set(key, fresh).commit();
    if (result.ok) return fresh;
    // Another process created it first: use theirs.
    const winner = (await this.#kv.get<Uint8Array>(key)).value;
    if (!(winner instanceof Uint8Array)) throw new Error("The server secret could not be created.");
    return winner;
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.#kv.get(["secret"]);
      return { ok: true, kind: this.kind };
    } catch (error) {
      return { ok: false, kind: this.kind, error: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#blobs.settled();
    await this.#counters.close();
    this.#kv.close();
    this.#lock.release();
  }
}
