/** Opens the state store the configuration asks for: Redis when REDIS_URL is set, else embedded. */
import type { Config } from "../config/mod.ts";
import { EmbeddedKeys, EmbeddedStore } from "./embedded.ts";
import { RedisStore } from "./redis.ts";
import type { KeyStore, Store } from "./types.ts";

export type { KeyRecord, KeyStore, Store, StoredAsset, StoreHealth } from "./types.ts";

export function openStore(
  config: Pick<Config, "redisUrl" | "dataDir" | "cacheMaxBytes">,
): Promise<Store> {
  if (config.redisUrl) return RedisStore.open(config.redisUrl);
  return EmbeddedStore.open({ dataDir: config.dataDir, maxBytes: config.cacheMaxBytes });
}

/**
 * The keys alone (the keys CLI): on embedded state, beside the service that owns DATA_DIR
 * (keys live in KV only, read on every use).
 */
export function openKeyStore(config: Pick<Config, "redisUrl" | "dataDir">): Promise<KeyStore> {
  if (config.redisUrl) return RedisStore.open(config.redisUrl);
  return EmbeddedKeys.open(config.dataDir);
}
