/**
 * API keys: `lp_` + 32 random bytes in base64url, shown once at creation. The store keeps only
 * the key's SHA-256, a short public id and a per-key signing secret for embed URLs.
 */
import { createHash } from "node:crypto";
import type { KeyRecord, Store } from "../store/types.ts";
import { constantTimeEqual } from "./constant_time.ts";
import { toBase64Url } from "../util/base64url.ts";

export const KEY_PREFIX = "lp_";
const KEY_PATTERN = /^lp_[A-Za-z0-9_-]{43}$/;
const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** True for a string shaped like a linkpeek key (no store lookup). */
export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Hex SHA-256 of a key: the only form in which keys are stored or compared. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

function random(bytes: number): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Registers a key; returns the key itself (to print once) and what was stored. */
export async function createKey(
  store: Pick<Store, "addKey">,
  options: { name: string; dailyLimit?: number | null; now?: number },
): Promise<{ key: string; record: KeyRecord }> {
  if (!NAME_PATTERN.test(options.name)) {
    throw new Error(
      `Invalid key name "${options.name}": use 1-64 letters, digits, dots, dashes or underscores.`,
    );
  }
  const dailyLimit = options.dailyLimit ?? null;
  if (dailyLimit !== null && (!Number.isInteger(dailyLimit) || dailyLimit < 1)) {
    throw new Error(`Invalid daily limit "${dailyLimit}": use a whole number of at least 1.`);
  }
  const key = KEY_PREFIX + random(32);
  const record: KeyRecord = {
    id: random(9),
    name: options.name,
    hash: hashKey(key),
    signingSecret: random(32),
    createdAt: options.now ?? Date.now(),
    dailyLimit,
    revokedAt: null,
  };
  await store.addKey(record);
  return { key, record };
}

/** The active record for a presented key, or null (malformed, unknown or revoked). */
export async function findActiveKey(
  store: Pick<Store, "findKeyByHash">,
  key: string,
): Promise<KeyRecord | null> {
  if (!isWellFormedKey(key)) return null;
  const hash = hashKey(key);
  const record = await store.findKeyByHash(hash);
  if (!record || !constantTimeEqual(record.hash, hash)) return null;
  return record.revokedAt === null ? record : null;
}
