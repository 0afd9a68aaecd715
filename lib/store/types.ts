/**
 * Shared state behind one interface: embedded (Deno KV + files in DATA_DIR) or Redis.
 * Every method may throw ApiError("EUNAVAILABLE") when the backing service is unreachable, or
 * when a record it cannot do without (a key) is damaged. A damaged record that can be done
 * without is not an error: a cache entry or asset is a miss, a counter starts again.
 */
import { ApiError } from "../util/errors.ts";

/** A hosted file, e.g. a screenshot. */
export interface StoredAsset {
  bytes: Uint8Array;
  contentType: string;
  /** Made from a credentialed request: served with `cache-control: private`. */
  private: boolean;
  /** The name a client saves it under (`filename`, sanitised, with its extension), if asked. */
  filename?: string;
}

/** A registered API key. Only the SHA-256 of the key itself is ever stored. */
export interface KeyRecord {
  /** Short public id, e.g. the prefix of signed URLs' `signature` parameter. */
  id: string;
  name: string;
  /** Hex SHA-256 of the key. */
  hash: string;
  /** base64url secret that signs embed URLs for this key. */
  signingSecret: string;
  /** Epoch ms. */
  createdAt: number;
  /** Requests per UTC day; null means unlimited. */
  dailyLimit: number | null;
  /** Epoch ms of revocation; null while active. */
  revokedAt: number | null;
}

/** The keys alone (the keys CLI). */
export type KeyStore = Pick<
  Store,
  "addKey" | "findKeyByHash" | "findKeyById" | "listKeys" | "revokeKey" | "close"
>;

export interface StoreHealth {
  ok: boolean;
  kind: "embedded" | "redis";
  /** Why it is not ok. */
  error?: string;
}

export interface Store {
  readonly kind: "embedded" | "redis";
  /**
   * Adds one to `key` and returns the new value; the counter disappears at `expiresAt` (epoch
   * ms). `limit` is the limit the count is checked against: a store that writes counts late
   * (embedded) keeps fewer than LOST_SHARE of it unwritten, so a crash loses at most that.
   */
  increment(key: string, expiresAt: number, options?: { limit?: number }): Promise<number>;
  /** Response cache: opaque bytes, null when absent or expired. */
  getCache(key: string): Promise<Uint8Array | null>;
  setCache(key: string, entry: { value: Uint8Array; ttlMs: number }): Promise<void>;
  /** `id`: 1-128 characters of [A-Za-z0-9_-]. Throws when it cannot be kept (too large). */
  putAsset(id: string, asset: StoredAsset & { ttlMs: number }): Promise<void>;
  getAsset(id: string): Promise<StoredAsset | null>;
  /** Throws a plain Error when an active key already has that name. */
  addKey(record: KeyRecord): Promise<void>;
  findKeyByHash(hash: string): Promise<KeyRecord | null>;
  findKeyById(id: string): Promise<KeyRecord | null>;
  /** Every key ever added, revoked ones included, oldest first. */
  listKeys(): Promise<KeyRecord[]>;
  /** False when no active key has that name. */
  revokeKey(name: string): Promise<boolean>;
  /** 32 random bytes made once and shared by every instance on the same state. */
  serverSecret(): Promise<Uint8Array>;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

/** The share of a counter's limit a crash may lose in the embedded store (see _counters.ts). */
export const LOST_SHARE = 1 / 20;

/** Counts of a counter with `limit` that may be unwritten at any time: a twentieth, at least 1. */
export function maxUnsaved(limit: number | undefined): number {
  return limit === undefined ? Infinity : Math.max(1, Math.floor(limit * LOST_SHARE));
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Cache keys and asset ids double as file names in embedded mode, so they stay plain. */
export function checkId(kind: string, id: string): void {
  if (!ID.test(id)) throw new Error(`Invalid ${kind} id "${id.slice(0, 140)}".`);
}

/**
 * A record the state needs and cannot read (a value of the wrong type or shape): EUNAVAILABLE
 * naming it, since nothing else answers for it and an operator must repair it.
 */
export function damaged(record: string): ApiError {
  const error = new ApiError(
    "EUNAVAILABLE",
    `Shared state holds a damaged record (${record}): repair or delete it.`,
    { headers: { "retry-after": "5" } },
  );
  damagedErrors.add(error);
  return error;
}

const damagedErrors = new WeakSet<object>();

/** Whether `error` is damaged()'s, not the store being unreachable. */
export function isDamaged(error: unknown): boolean {
  return typeof error === "object" && error !== null && damagedErrors.has(error);
}

/** A key record as stored, or null when it is not one (garbage, another shape). */
export function asKeyRecord(value: unknown): KeyRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const r = value as Record<string, unknown>;
  const text = (v: unknown) => typeof v === "string" && v.length > 0;
  const ok = text(r.id) && text(r.name) && text(r.hash) && text(r.signingSecret) &&
    Number.isFinite(r.createdAt) && (r.dailyLimit === null || Number.isFinite(r.dailyLimit)) &&
    (r.revokedAt === null || Number.isFinite(r.revokedAt));
  return ok ? value as KeyRecord : null;
}
