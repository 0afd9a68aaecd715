/**
 * Shared state on Redis so that N instances behave as one. Commands fail fast when Redis is
 * unreachable (no offline queue, short command timeout) as ApiError EUNAVAILABLE, and the
 * client reconnects by itself in the background. Memory is bounded by TTLs on every cache
 * entry, asset and counter; operators add `maxmemory` + `maxmemory-policy volatile-lru`,
 * which never evicts keys or the server secret (they have no TTL).
 *
 * A record of the wrong type or shape (written by something else, or cut short) never makes a
 * request fail on its own: a cache entry or asset is a miss, a counter starts again, a server
 * secret is made anew; a damaged key record is EUNAVAILABLE naming it (see `damaged`).
 */
import { Buffer } from "node:buffer";
import { Redis } from "ioredis";
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { settlesWithin } from "../util/deadline.ts";
import { onceUntilSuccess } from "./_once.ts";
import {
  asKeyRecord,
  checkId,
  damaged,
  isDamaged,
  type KeyRecord,
  type Store,
  type StoredAsset,
  type StoreHealth,
} from "./types.ts";

const P = "lp:";
const COMMAND_TIMEOUT_MS = 1500;
const READY_WAIT_MS = 3000;

// INCR and expiry in one step, so a counter can never outlive its window. A value INCR refuses
// (another type, not a whole number) starts again from 1; any other refusal (OOM) is the reply.
const INCR_LUA = `local v = redis.pcall('INCR', KEYS[1])
local reset = 0
if type(v) == 'table' and v.err then
  if not (string.find(v.err, '^WRONGTYPE') or string.find(v.err, 'not an integer')
    or string.find(v.err, 'overflow')) then return redis.error_reply(v.err) end
  redis.call('DEL', KEYS[1])
  v = redis.call('INCR', KEYS[1])
  reset = 1
end
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
return {v, reset}`;
// The server secret, made once (the first instance wins); one of another type or length is
// replaced (it only keys the cache: the cost is a cold cache). 1 when it replaced one.
const SECRET_LUA = `local t = redis.call('TYPE', KEYS[1])['ok']
if t == 'string' and redis.call('STRLEN', KEYS[1]) == 32 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1])
if t == 'none' then return 0 end
return 1`;
// Claims the name only while no active key holds it, then writes record and indexes.
const ADD_KEY_LUA = `if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[4], ARGV[2])
redis.call('RPUSH', KEYS[4], ARGV[2])
return 1`;
const REVOKE_LUA = `if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[3])
return 1`;

/**
 * Reply errors that mean "not serving right now" rather than a bug in a command. A full Redis
 * (maxmemory, noeviction) refuses writes with OOM, and a MULTI holding one with EXECABORT.
 */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY|OOM|EXECABORT)/;
/** A command on a key that holds another type (a damaged or foreign record). */
const WRONG_TYPE = /^WRONGTYPE/;

function unavailable(error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ApiError("EUNAVAILABLE", `Shared state (Redis) is unavailable: ${reason}`, {
    headers: { "retry-after": "5" },
  });
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function toBytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** A key record's JSON as read (null: none); one that is not a key record is damaged. */
function keyRecordOf(record: string, json: string | null): KeyRecord | null {
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw damaged(record);
  }
  const parsed = asKeyRecord(value);
  if (!parsed) throw damaged(record);
  return parsed;
}

export class RedisStore implements Store {
  readonly kind = "redis" as const;
  #redis: Redis;
  readonly #secret = onceUntilSuccess(() => this.#loadSecret());
  #down = false;

  private constructor(redis: Redis) {
    this.#redis = redis;
    // Without a listener an 'error' event would crash the process.
    redis.on("error", (error: Error) => {
      if (this.#down) return;
      this.#down = true;
      log.warn("redis unreachable", { error: error.message });
    });
    redis.on("ready", () => {
      if (this.#down) log.info("redis reachable again");
      this.#down = false;
    });
  }

  /** Connects; when Redis is not up within a few seconds the store still opens and recovers. */
  static async open(url: string): Promise<RedisStore> {
    const redis = new Redis(url, {
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
    });
    const store = new RedisStore(redis);
    const ready = new Promise<void>((resolve) => redis.once("ready", () => resolve()));
    if (!await settlesWithin(ready, READY_WAIT_MS)) {
      log.warn("redis not ready at start-up; requests fail with EUNAVAILABLE until it is");
    }
    return store;
  }

  /** `record`: the key a wrong-typed reply is about, named in its EUNAVAILABLE (damaged). */
  async #call<T>(run: (redis: Redis) => Promise<T>, record?: string): Promise<T> {
    try {
      return await run(this.#redis);
    } catch (error) {
      const reply = error instanceof Error && error.name === "ReplyError";
      if (reply && record && WRONG_TYPE.test(error.message)) throw damaged(record);
      if (reply && !TRANSIENT_REPLY.test(error.message)) throw error;
      throw unavailable(error);
    }
  }

  /**
   * A read of a record that can be done without: one of the wrong type is a miss, and goes (so
   * that it is warned about once; at worst a valid one written meanwhile goes too: a miss).
   */
  async #readOrMiss<T>(record: string, run: (redis: Redis) => Promise<T>): Promise<T | null> {
    try {
      return await this.#call(run, record);
    } catch (error) {
      if (!isDamaged(error)) throw error;
      log.warn("damaged record in redis: a miss", { record });
      await this.#redis.del(record).catch(() => {});
      return null;
    }
  }

  /** Counted by Redis itself, at once: nothing is held back, whatever the limit. */
  async increment(key: string, expiresAt: number): Promise<number> {
    const record = `${P}count:${key}`;
    const [value, reset] = await this.#call((r) => r.eval(INCR_LUA, 1, record, expiresAt)) as [
      number,
      number,
    ];
    if (reset) log.warn("damaged counter in redis: started again", { record });
    return Number(value);
  }

  async getCache(key: string): Promise<Uint8Array | null> {
    checkId("cache", key);
    const record = `${P}cache:${key}`;
    const value = await this.#readOrMiss(record, (r) => r.getBuffer(record));
    return value ? toBytes(value) : null;
  }

  async setCache(key: string, entry: { value: Uint8Array; ttlMs: number }): Promise<void> {
    checkId("cache", key);
    const ttl = Math.max(1, Math.round(entry.ttlMs));
    await this.#call((r) => r.set(`${P}cache:${key}`, toBuffer(entry.value), "PX", ttl));
  }

  async putAsset(id: string, asset: StoredAsset & { ttlMs: number }): Promise<void> {
    checkId("asset", id);
    const key = `${P}asset:${id}`;
    const ttl = Math.max(1, Math.round(asset.ttlMs));
    await this.#call((r) =>
      r.multi()
        .del(key)
        .hset(
          key,
          "b",
          toBuffer(asset.bytes),
          "t",
          asset.contentType,
          "p",
          asset.private ? "1" : "0",
          "n",
          asset.filename ?? "",
        )
        .pexpire(key, ttl)
        .exec()
    );
  }

  async getAsset(id: string): Promise<StoredAsset | null> {
    checkId("asset", id);
    const record = `${P}asset:${id}`;
    const fields = await this.#readOrMiss(record, (r) => r.hmgetBuffer(record, "b", "t", "p", "n"));
    const [bytes, type, priv, name] = fields ?? [];
    if (!bytes || !type) return null;
    return {
      bytes: toBytes(bytes),
      contentType: type.toString(),
      private: priv?.toString() === "1",
      ...(name?.length ? { filename: name.toString() } : {}),
    };
  }

  async addKey(record: KeyRecord): Promise<void> {
    const added = await this.#call((r) =>
      r.eval(
        ADD_KEY_LUA,
        4,
        `${P}keyactive`,
        `${P}key:${record.id}`,
        `${P}keyhash`,
        `${P}keyids`,
        record.name,
        record.id,
        JSON.stringify(record),
        record.hash,
      ), `one of ${P}keyactive, ${P}keyhash, ${P}keyids`);
    if (Number(added) !== 1) throw new Error(`A key named "${record.name}" already exists.`);
  }

  async findKeyByHash(hash: string): Promise<KeyRecord | null> {
    const id = await this.#call((r) => r.hget(`${P}keyhash`, hash), `${P}keyhash`);
    return id === null ? null : await this.findKeyById(id);
  }

  async findKeyById(id: string): Promise<KeyRecord | null> {
    const record = `${P}key:${id}`;
    return keyRecordOf(record, await this.#call((r) => r.get(record), record));
  }

  async listKeys(): Promise<KeyRecord[]> {
    const ids = await this.#call((r) => r.lrange(`${P}keyids`, 0, -1), `${P}keyids`);
    if (ids.length === 0) return [];
    const records = ids.map((id) => `${P}key:${id}`);
    const values = await this.#call((r) => r.mget(records));
    return values.flatMap((v, i) => v === null ? [] : [keyRecordOf(records[i]!, v)!]);
  }

  async revokeKey(name: string): Promise<boolean> {
    const id = await this.#call((r) => r.hget(`${P}keyactive`, name), `${P}keyactive`);
    if (id === null) return false;
    const record = await this.findKeyById(id);
    if (!record) return false;
    const revoked = JSON.stringify({ ...record, revokedAt: Date.now() });
    const done = await this.#call(
      (r) => r.eval(REVOKE_LUA, 2, `${P}keyactive`, `${P}key:${id}`, name, id, revoked),
      `${P}keyactive`,
    );
    return Number(done) === 1;
  }

  serverSecret(): Promise<Uint8Array> {
    return this.#secret();
  }

  async #loadSecret(): Promise<Uint8Array> {
    const fresh = toBuffer(crypto.getRandomValues(new Uint8Array(32)));
    // The first instance wins, every later one reads the same bytes.
    const replaced = await this.#call((r) => r.eval(SECRET_LUA, 1, `${P}secret`, fresh));
    if (Number(replaced) === 1) log.warn("damaged server secret in redis: made anew");
    const value = await this.#call((r) => r.getBuffer(`${P}secret`));
    if (!value || value.byteLength !== 32) throw unavailable("the server secret is missing");
    return new Uint8Array(value);
  }

  async health(): Promise<StoreHealth> {
    try {
      await this.#call((r) => r.ping());
      return { ok: true, kind: this.kind };
    } catch (error) {
      return { ok: false, kind: this.kind, error: (error as Error).message };
    }
  }

  close(): Promise<void> {
    this.#redis.disconnect();
    return Promise.resolve();
  }
}
