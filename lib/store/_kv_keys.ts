/**
 * API key records on Deno KV: ["key", id] the record, ["keyname", name] and ["keyhash", hash]
 * its indexes. Read from KV on every use (nothing kept in memory), so that the keys CLI may
 * change them beside a running service.
 */
import { asKeyRecord, damaged, type KeyRecord } from "./types.ts";

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

export class KvKeys {
  #kv: Deno.Kv;

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
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
}
