/**
 * Embedded state in DATA_DIR with no service to install: Deno KV (`state.kv`) for keys,
 * counters, the server secret, the blob index and small blobs; files under `blobs/` for cache
 * entries and assets over 63 KiB (KV values are capped at 64 KiB; see _blobs.ts). One process
 * per DATA_DIR; use Redis for several.
 */
import { join } from "node:path";
import { Blobs } from "./_blobs.ts";
import { onceUntilSuccess } from "./_once.ts";
import { Counters } from "./_counters.ts";
import {
  checkId,
  type KeyRecord,
  maxUnsaved,
  type Store,
  type StoredAsset,
  type StoreHealth,
} from "./types.ts";

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
      throw error;
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
    const nameEntry = await this.#kv.get<string>(["keyname", record.name]);
    if (nameEntry.value !== null) {
      const current = await this.findKeyById(nameEntry.value);
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
    const id = (await this.#kv.get<string>(["keyhash", hash])).value;
    return id === null ? null : await this.findKeyById(id);
  }

  async findKeyById(id: string): Promise<KeyRecord | null> {
    return (await this.#kv.get<KeyRecord>(["key", id])).value;
  }

  async listKeys(): Promise<KeyRecord[]> {
    const keys: KeyRecord[] = [];
    for await (const entry of this.#kv.list<KeyRecord>({ prefix: ["key"] })) keys.push(entry.value);
    return keys.sort((a, b) => a.createdAt - b.createdAt);
  }

  async revokeKey(name: string): Promise<boolean> {
    const id = (await this.#kv.get<string>(["keyname", name])).value;
    if (id === null) return false;
    const entry = await this.#kv.get<KeyRecord>(["key", id]);
    if (!entry.value || entry.value.revokedAt !== null) return false;
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
    const existing = await this.#kv.get<Uint8Array>(key);
    if (existing.value) return existing.value;
    const fresh = crypto.getRandomValues(new Uint8Array(32));
    const result = await this.#kv.atomic().check(existing).set(key, fresh).commit();
    if (result.ok) return fresh;
    // Another process created it first: use theirs.
    const winner = (await this.#kv.get<Uint8Array>(key)).value;
    if (!winner) throw new Error("The server secret could not be created.");
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
