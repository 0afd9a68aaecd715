/**
 * A hosted capture is saved under the name stored with it when it was made (`filename`), or
 * under none: never under the name a rewritten link carries in its last path segment.
 */
import assert from "node:assert/strict";
import { testConfig } from "../_fixtures.ts";
import { hostAsset, serveAsset } from "../../lib/api/assets.ts";
import { createServices } from "../../lib/services/mod.ts";
import type { Config } from "../../lib/config/mod.ts";
import { startRedis } from "../store/_redis.ts";

/** A PNG signature and a little more: served inline, as a real capture is. */
const PNG = Uint8Array.from("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", (c) => c.charCodeAt(0));

async function checkNames(t: Deno.TestContext, config: Config) {
  const services = await createServices(config);
  try {
    const named = await hostAsset(services, {
      bytes: PNG,
      type: "png",
      width: 1,
      height: 1,
      credentialed: false,
      filename: "report",
    });
    const id = new URL(named.url).pathname.split("/")[2]!;
    const unnamed = await hostAsset(services, {
      bytes: PNG,
      type: "png",
      width: 1,
      height: 1,
      credentialed: false,
    });
    const unnamedId = new URL(unnamed.url).pathname.split("/")[2]!.replace(/\.png$/, "");
    const disposition = async (path: string) => {
      const response = await serveAsset(services, path);
      assert.ok(response, `${path} is served`);
      await response.body?.cancel();
      return response.headers.get("content-disposition");
    };

    await t.step("the link as made carries the stored name", async () => {
      assert.equal(await disposition(new URL(named.url).pathname), 'inline; filename="report.png"');
    });
    await t.step("a rewritten name in the link does not change it", async () => {
      assert.equal(
        await disposition(`/assets/${id}/invoice-2026.png`),
        'inline; filename="report.png"',
      );
      assert.equal(await disposition(`/assets/${id}.png`), 'inline; filename="report.png"');
    });
    await t.step("a capture made without a name is saved under none", async () => {
      assert.equal(await disposition(`/assets/${unnamedId}/invoice-2026.png`), null);
      assert.equal(await disposition(`/assets/${unnamedId}.png`), null);
    });
  } finally {
    await services.close();
    await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
  }
}

Deno.test("an asset's saved name is the stored one (embedded store)", async (t) => {
  await checkNames(t, testConfig());
});

Deno.test("an asset's saved name is the stored one (Redis store)", async (t) => {
  await using redis = await startRedis();
  await checkNames(t, testConfig({ redisUrl: redis.url }));
});
