/**
 * The configuration every bench gives linkpeek: a fresh data folder, the one loopback target
 * trusted, and no daily limit in the way of thousands of requests. Each bench adds its own
 * settings on top (`settings`), and may start from the process's environment (`base`).
 */
import { type Config, loadConfig } from "../lib/config/mod.ts";

export async function benchConfig(
  targetPort: number,
  settings: Record<string, string> = {},
  base: Record<string, string> = {},
): Promise<Config> {
  return loadConfig({
    ...base,
    DATA_DIR: await Deno.makeTempDir({ prefix: "linkpeek-bench-" }),
    TRUSTED_TARGETS: `127.0.0.1:${targetPort}`,
    FREE_DAILY_LIMIT: String(1e9),
    ...settings,
  });
}
