import assert from "node:assert/strict";
import { imageSize } from "../../lib/media/image_size.ts";
import * as fx from "./_fixtures.ts";

Deno.test("imageSize() reads dimensions from each format's header", async (t) => {
  await t.step("PNG", () => assert.deepEqual(imageSize(fx.png(31, 17)), { width: 31, height: 17 }));
  await t.step(
    "JPEG",
    () => assert.deepEqual(imageSize(fx.jpeg(40, 24)), { width: 40, height: 24 }),
  );
  await t.step("JPEG behind a 30 KB EXIF block", () => {
    const bytes = fx.jpeg(33, 21, { exifPad: 30_000 });
    assert.deepEqual(imageSize(bytes.subarray(0, 65536)), { width: 33, height: 21 });
  });
  await t.step("JPEG with EXIF orientation 6 reports the displayed size", () => {
    assert.deepEqual(imageSize(fx.jpeg(40, 24, { exifOrientation: 6 })), { width: 24, height: 40 });
  });
  await t.step("GIF", () => assert.deepEqual(imageSize(fx.gif(12, 7)), { width: 12, height: 7 }));
  await t.step("WebP VP8", () => {
    assert.deepEqual(imageSize(fx.webp("VP8", 1200, 630)), { width: 1200, height: 630 });
  });
  await t.step("WebP VP8L", () => {
    assert.deepEqual(imageSize(fx.webp("VP8L", 16383, 2)), { width: 16383, height: 2 });
  });
  await t.step("WebP VP8X", () => {
    assert.deepEqual(imageSize(fx.webp("VP8X", 4000, 3000)), { width: 4000, height: 3000 });
  });
  await t.step("BMP (top-down)", () => {
    assert.deepEqual(imageSize(fx.bmp(64, 48)), { width: 64, height: 48 });
  });
  await t.step("AVIF takes the largest ispe", () => {
    assert.deepEqual(imageSize(fx.avif(1920, 1080)), { width: 1920, height: 1080 });
  });
  await t.step("ICO takes the largest entry, 0 meaning 256", () => {
    assert.deepEqual(imageSize(fx.ico([[16, 16], [0, 0], [48, 48]])), { width: 256, height: 256 });
    assert.deepEqual(imageSize(fx.ico([[16, 16], [32, 32]])), { width: 32, height: 32 });
  });
});

Deno.test("imageSize() reads SVG width/height or viewBox", async (t) => {
  await t.step("width and height in px", () => {
    assert.deepEqual(imageSize(fx.svg('width="120px" height="60"')), { width: 120, height: 60 });
  });
  await t.step("viewBox alone", () => {
    assert.deepEqual(imageSize(fx.svg('viewBox="0 0 300 150"')), { width: 300, height: 150 });
  });
  await t.step("one side plus viewBox keeps the ratio", () => {
    assert.deepEqual(imageSize(fx.svg('width="100" viewBox="0,0,300,150"')), {
      width: 100,
      height: 50,
    });
  });
  await t.step("relative units without viewBox tell nothing", () => {
    assert.equal(imageSize(fx.svg('width="100%" height="2em"')), null);
  });
  await t.step("only the file's head is read for the root element", () => {
    const drawing = (before: string, after: string) =>
      new TextEncoder().encode(
        `<?xml version="1.0"?>\n<!--${before}--><svg width="40" height="30">${after}</svg>`,
      );
    // A 5 MB drawing: its size is in its first bytes, the rest is never decoded.
    const paths = '<path d="M0 0L1 1"/>'.repeat(250_000);
    assert.deepEqual(imageSize(drawing("", paths)), { width: 40, height: 30 });
    // Past the sniffer's 4 KB, the type comes from the response; past 64 KB the root element
    // is not looked for.
    const late = (kb: number) => imageSize(drawing("x".repeat(kb * 1024), ""), "svg");
    assert.deepEqual(late(60), { width: 40, height: 30 });
    assert.equal(late(64), null);
  });
});

Deno.test("imageSize() returns null for truncated or unknown bytes", () => {
  assert.equal(imageSize(fx.png(10, 10).subarray(0, 18)), null);
  assert.equal(imageSize(fx.jpeg(10, 10, { exifPad: 30_000 }).subarray(0, 20_000)), null);
  assert.equal(imageSize(fx.latin1("<html></html>")), null);
  assert.equal(imageSize(new Uint8Array()), null);
});
