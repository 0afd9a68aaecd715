/** Opens the state store the configuration asks for: Redis when REDIS_URL is set, else embedded. */
import type { Config } from "../config/mod.ts";
import { EmbeddedStore } from "./embedded.ts";
import { RedisStore } from "./redis.ts";
import type { Store } from "./types.ts";

export type { KeyRecord, Store, StoredAsset, StoreHealth } from "./types.ts";

export function openStore(
  config: Pick<Config, "redisUrl" | "dataDir" | "cacheMaxBytes">,
): Promise<Store> {
  if (config.redisUrl) return RedisStore.open(config.redisUrl);
  return EmbeddedStore.open({ dataDir: config.dataDir, maxBytes: config.cacheMaxBytes });
}
