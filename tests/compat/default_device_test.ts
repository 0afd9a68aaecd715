/**
 * Microlink's default device through @microlink/mql: with neither `device` nor `viewport`, a
 * screenshot is Macbook Pro 13's 1280x800 CSS pixels at 2x, and `viewport` members replace the
 * default's one by one, as Microlink's viewport docs show.
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import type { Any } from "./_mql.ts";
import { startCompat } from "./_target.ts";
import { imageSize } from "../../lib/media/image_size.ts";

Deno.test("default device through mql: Macbook Pro 13 at 2x, viewport merged into it", async (t) => {
  await using compat = await startCompat();
  const shot = async (options: Record<string, unknown>) => {
    const result: Any = await mql(compat.pageUrl, {
      endpoint: `${compat.app.origin}/`,
      meta: false,
      screenshot: true,
      ...options,
    } as Any);
    const { width, height, url } = result.data.screenshot;
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    assert.deepEqual(imageSize(bytes), { width, height }, "the answer tells the image's size");
    return [width, height];
  };

  await t.step("no device, no viewport: a 2560x1600 image", async () => {
    assert.deepEqual(await shot({}), [2560, 1600]);
  });

  await t.step("viewport width and height keep the default's scale factor", async () => {
    assert.deepEqual(await shot({ viewport: { width: 640, height: 400 } }), [1280, 800]);
  });

  await t.step(
    "viewport deviceScaleFactor keeps the default's size (Microlink's example)",
    async () => {
      assert.deepEqual(await shot({ viewport: { deviceScaleFactor: 0.5 } }), [640, 400]);
    },
  );
});
