import assert from "node:assert/strict";
import { loadConfig } from "../lib/config/mod.ts";

Deno.test("loadConfig() holds settings only: the resolver and connector are hooks", () => {
  // Tests inject them as NetworkHooks (createHandler's hooks, GuardedFetcher's `network`).
  const config = loadConfig({ TRUSTED_TARGETS: "127.0.0.1/32:8080" });
  for (const hook of ["resolver", "connector"]) assert.equal(hook in config, false, hook);
  assert.deepEqual(config.trustedTargets, [{ network: "127.0.0.1", prefix: 32, port: 8080 }]);
});
