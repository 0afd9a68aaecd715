/**
 * Embedded state in DATA_DIR with no service to install: Deno KV (`state.kv`) for keys,
 * counters, the server secret, the blob index and small blobs; files under `blobs/` for cache
 * entries and assets over 63 KiB (KV values are capped at 64 KiB; see _blobs.ts). One process
 * per DATA_DIR; use Redis for several.
 *
 * A value KV cannot read back (its bytes damaged) or of another shape is handled as in Redis:
 * a blob is a miss, a counter starts again, the server secret is made anew, a key record is
 * EUNAVAILABLE naming it (see `damaged`).
 */
import { join } from "node:path";
import { Blobs } from "./_blobs.ts";
import { onceUntilSuccess } from "./_once.ts";
import { Counters } from "./_counters.ts";
import { log } from "../util/log.ts";
import {
  asKeyRecord,
  checkId,
  damaged,
  type KeyRecord,
  maxUnsaved,
  type Store,
  type StoredAsset,
  type StoreHealth,
} from "./types.ts";

/** Reads `key`; a value that cannot be read back (damaged bytes) is damaged(), naming it. */
async function readOrDamaged<T>(kv: Deno.Kv, key: Deno.KvKey): Promise<Deno.KvEntryMaybe<T>> {
  try {
    return await kv.get<T>(key);
  } catch (error) {
    if (error instanceof RangeError) throw damaged(JSON.stringify(key));
    throw error;
  }
}

/** A key record as read (null: none); one that is not a key record is damaged. */
function keyRecordOf(key: Deno.KvKey, value: unknown): KeyRecord | null {
  if (value === null) return null;
  const record = asKeyRecord(value);
  if (!record) throw damaged(JSON.stringify(key));
  return record;
}

/** A key index entry (a key id) as read; anything but a string is damaged. */
function idOf(key: Deno.KvKey, value: unknown): string | null {
  if (value === null || typeof value === "string") return value;
  throw damaged(JSON.stringify(key));
}

export class EmbeddedStore implements Store {
  readonly kind = "embedded" as const;
  #kv: Deno.Kv;
  #blobs: Blobs;
  #counters: Counters;
  readonly #secret = onceUntilSuccess(() => this.#loadSecret());
  #closed = false;

  private constructor(kv: Deno.Kv, blobs: Blobs) {
    this.#kv = kv;
    this.#blobs = blobs;
    this.#counters = new Counters(kv);
  }

  static async open(options: { dataDir: string; maxBytes: number }): Promise<EmbeddedStore> {
    let kv: Deno.Kv;
    try {
      await Deno.mkdir(options.dataDir, { recursive: true });
      kv = await Deno.openKv(join(options.dataDir, "state.kv"));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`DATA_DIR "${options.dataDir}" cannot hold the state: ${reason}`, {
        cause: error,
      });
    }
    try {
      const blobs = await Blobs.open({
        kv,
        dir: join(options.dataDir, "blobs"),
        maxBytes: options.maxBytes,
      });
      return new EmbeddedStore(kv, blobs);
    } catch (error) {
      kv.close();
      // KV names no key when a value cannot be read back: the whole blob index is unreadable.
      if (!(error instanceof RangeError)) throw error;
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

  async addKey(record: KeyRecord): Promise<void> {
    const nameKey = ["keyname", record.name];
    const nameEntry = await readOrDamaged<string>(this.#kv, nameKey);
    const currentId = idOf(nameKey, nameEntry.value);
    if (currentId !== null) {
      const current = await this.findKeyById(currentId);
      if (current && current.revokedAt === null) {
        throw new Error(`A key named "${record.name}" already exists.`);
      }
    }
    const result = await this.#kv.atomic()
      .check(nameEntry)
      .check({ key: ["key", record.id], versionstamp: null })
      .set(["key", record.id], record)
      .set(["keyname", record.name], record.id)
      .set(["keyhash", record.hash], record.id)
      .commit();
    if (!result.ok) throw new Error(`A key named "${record.name}" was added concurrently.`);
  }

  async findKeyByHash(hash: string): Promise<KeyRecord | null> {
    const key = ["keyhash", hash];
    const id = idOf(key, (await readOrDamaged(this.#kv, key)).value);
    return id === null ? null : await this.findKeyById(id);
  }

  async findKeyById(id: string): Promise<KeyRecord | null> {
    const key = ["key", id];
    return keyRecordOf(key, (await readOrDamaged(this.#kv, key)).value);
  }

  async listKeys(): Promise<KeyRecord[]> {
    const keys: KeyRecord[] = [];
    try {
      for await (const entry of this.#kv.list({ prefix: ["key"] })) {
        keys.push(keyRecordOf(entry.key, entry.value)!);
      }
    } catch (error) {
      // KV names no key when a value cannot be read back.
      if (error instanceof RangeError) throw damaged('["key", ...]');
      throw error;
    }
    return keys.sort((a, b) => a.createdAt - b.createdAt);
  }

  async revokeKey(name: string): Promise<boolean> {
    const nameKey = ["keyname", name];
    const id = idOf(nameKey, (await readOrDamaged(this.#kv, nameKey)).value);
    if (id === null) return false;
    const entry = await readOrDamaged<KeyRecord>(this.#kv, ["key", id]);
    if (!keyRecordOf(entry.key, entry.value) || entry.value!.revokedAt !== null) return false;
    const result = await this.#kv.atomic()
      .check(entry)
      .set(["key", id], { ...entry.value, revokedAt: Date.now() })
      .commit();
    return result.ok;
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
  }
}
