import assert from "node:assert/strict";
import { crc32, deflateSync } from "node:zlib";
import { contrast, imagePalette } from "../../lib/media/palette.ts";
import {
  imagePaletteAsync,
  paletteDecodes,
  palettesSettled,
} from "../../lib/media/palette_async.ts";
import * as fx from "./_fixtures.ts";

const RED: fx.Rgb = [200, 30, 30];
const BLUE: fx.Rgb = [20, 60, 230];
const WHITE: fx.Rgb = [255, 255, 255];

function rgbOf(hex: string): number[] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function assertClose(hex: string | undefined, rgb: fx.Rgb, tolerance: number) {
  assert.ok(hex, "colour missing");
  const got = rgbOf(hex);
  const distance = Math.hypot(...got.map((v, i) => v - rgb[i]!));
  assert.ok(distance <= tolerance, `${hex} is ${distance.toFixed(1)} away from rgb(${rgb})`);
}

Deno.test("imagePalette() finds the two colours of a PNG, most common first", () => {
  // 70% red on the left, 30% blue on the right.
  const bytes = fx.png(200, 100, (x) => x < 140 ? RED : BLUE);
  const result = imagePalette(bytes);
  assert.ok(result);
  assert.deepEqual(result.palette, ["#c81e1e", "#143ce6"]);
  assert.equal(result.background_color, "#c81e1e");
  // Blue on red is only ~1.9:1: not readable, so white (5.6:1) is the text colour.
  assert.equal(result.color, "#ffffff");
  assert.equal(result.alternative_color, "#143ce6");
});

Deno.test("imagePalette() picks a readable palette colour on the background", () => {
  const bytes = fx.png(100, 100, (_x, y) => y < 80 ? WHITE : BLUE);
  const result = imagePalette(bytes);
  assert.ok(result);
  assert.equal(result.background_color, "#ffffff");
  assert.equal(result.color, "#143ce6");
  assert.ok(contrast(result.color, result.background_color) >= 3);
});

Deno.test("imagePalette() decodes JPEG (lossy colours within tolerance)", () => {
  const bytes = fx.jpeg(160, 80, { pick: (x) => x < 100 ? BLUE : WHITE });
  const result = imagePalette(bytes);
  assert.ok(result);
  assertClose(result.palette[0], BLUE, 12);
  assertClose(result.palette[1], WHITE, 12);
});

Deno.test("imagePalette() decodes GIF", () => {
  const result = imagePalette(fx.gif(20, 20)); // alternating red / blue pixels
  assert.ok(result);
  assert.deepEqual([...result.palette].sort(), ["#0000ff", "#ff0000"]);
});

Deno.test("imagePalette() returns null for undecodable bytes", () => {
  assert.equal(imagePalette(fx.webp("VP8X", 10, 10)), null);
  assert.equal(imagePalette(fx.png(50, 50).subarray(0, 60)), null);
  assert.equal(imagePalette(fx.latin1("<html>")), null);
});

/** A 1 x 1 GIF (palette red, blue) whose one frame declares `width` x `height`, one pixel coded. */
function gifWithFrame(width: number, height: number): Uint8Array {
  return fx.concat(
    "GIF89a",
    [...fx.le(1, 2), ...fx.le(1, 2), 0x80, 0, 0, 255, 0, 0, 0, 0, 255],
    [0x2c, ...fx.le(0, 2), ...fx.le(0, 2), ...fx.le(width, 2), ...fx.le(height, 2), 0],
    // LZW, 2-bit codes: clear (4), index 1 (blue), end (5), packed 3 bits each.
    [2, 2, 0x4c, 0x01, 0],
    [0x3b],
  );
}

Deno.test("imagePalette() decodes no GIF frame larger than the pixels it allows", () => {
  assert.deepEqual(imagePalette(gifWithFrame(1, 1))?.palette, ["#0000ff"]);
  // 20 million pixels declared by a 1 x 1 GIF of 40 bytes: omggif walked each of them (216 s
  // for a 65535 x 65535 frame).
  assert.equal(imagePalette(gifWithFrame(5000, 4000)), null);
});

Deno.test("imagePalette() decodes no JPEG of more scans than encoders write", () => {
  assert.deepEqual(imagePalette(fx.progressiveJpeg(1000, 1000, 100))?.palette, ["#808080"]);
  // Each scan walks every block of the image from a few bytes: 1,000 scans of a 4000 x 4000
  // image, 32 KB, took 2 s.
  assert.equal(imagePalette(fx.progressiveJpeg(1000, 1000, 101)), null);
});

/** A 1 x 1 interlaced RGBA PNG, its one row (filter byte, pixel) followed by `extra` zeros. */
function interlacedPng(rgba: number[], extra: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array | number[]) => {
    const body = fx.concat(type, data);
    return fx.concat(fx.be(data.length, 4), body, fx.be(crc32(body), 4));
  };
  const rows = new Uint8Array(1 + rgba.length + extra);
  rows.set([0, ...rgba]);
  return fx.concat(
    [137, 80, 78, 71, 13, 10, 26, 10],
    chunk("IHDR", [...fx.be(1, 4), ...fx.be(1, 4), 8, 6, 0, 0, 1]),
    chunk("IDAT", new Uint8Array(deflateSync(rows))),
    chunk("IEND", []),
  );
}

Deno.test("imagePalette() inflates no more of an interlaced PNG than its size needs", () => {
  assert.deepEqual(imagePalette(interlacedPng([200, 30, 30, 255], 0))?.palette, ["#c81e1e"]);
  // 128 MB of zeros behind one pixel, in a 128 KB file: pngjs inflated all of it before finding
  // the extra data (+210 MB of memory for 100 MB; a 1 MB file took 2 GB).
  const bomb = interlacedPng([200, 30, 30, 255], 128 * 1024 * 1024);
  const before = Deno.memoryUsage().rss;
  assert.equal(imagePalette(bomb), null);
  const grown = Deno.memoryUsage().rss - before;
  assert.ok(grown < 64 * 1024 * 1024, `rss grew by ${(grown / 1024 / 1024).toFixed(0)} MB`);
});

Deno.test("contrast() follows WCAG 2", () => {
  assert.equal(Math.round(contrast("#000000", "#ffffff")), 21);
  assert.equal(contrast("#777777", "#777777"), 1);
});

Deno.test("imagePalette() offers the other of black and white as alternative on one colour", () => {
  const result = imagePalette(fx.png(10, 10, () => RED));
  assert.ok(result);
  assert.deepEqual(result.palette, ["#c81e1e"]);
  assert.equal(result.color, "#ffffff");
  assert.equal(result.alternative_color, "#000000");
});

Deno.test("imagePaletteAsync() decodes in a worker and honours its signal", async (t) => {
  const bytes = fx.png(120, 60, (x) => x < 90 ? BLUE : WHITE);
  await t.step("same result as imagePalette()", async () => {
    assert.deepEqual(await imagePaletteAsync(bytes), imagePalette(bytes));
  });
  await t.step("undecodable bytes give null", async () => {
    assert.equal(await imagePaletteAsync(fx.latin1("nope")), null);
  });
  await t.step("an aborted signal gives null at once, while its worker still decodes", async () => {
    await palettesSettled();
    const controller = new AbortController();
    const pending = imagePaletteAsync(bytes, { signal: controller.signal });
    assert.equal(paletteDecodes(), 1);
    controller.abort();
    // A worker's answer is a message, so it cannot arrive before an answer given on abort.
    const answered = await pending.then((result) => ({ result, decodes: paletteDecodes() }));
    assert.deepEqual(answered, { result: null, decodes: 1 });
  });
});

Deno.test("imagePaletteAsync() decodes two images at once at most, each until it is done", async () => {
  const bytes = fx.png(120, 60, (x) => x < 90 ? BLUE : WHITE);
  await palettesSettled();
  const early = new AbortController();
  const abandoned = imagePaletteAsync(bytes, { signal: early.signal });
  early.abort();
  assert.equal(await abandoned, null);
  assert.equal(paletteDecodes(), 1, "an abandoned decode keeps its place until it ends");
  const second = imagePaletteAsync(bytes);
  const third = imagePaletteAsync(bytes);
  assert.equal(paletteDecodes(), 2, "the third image waits for a place");
  assert.deepEqual(await second, imagePalette(bytes));
  assert.deepEqual(await third, imagePalette(bytes));
  const fourth = imagePaletteAsync(bytes, { timeoutMs: 1 });
  const fifth = imagePaletteAsync(bytes, { timeoutMs: 1 });
  const sixth = imagePaletteAsync(bytes, { timeoutMs: 1 });
  assert.equal(await sixth, null, "a caller whose deadline passes while waiting gets none");
  await Promise.all([fourth, fifth]);
  await palettesSettled();
  assert.equal(paletteDecodes(), 0);
});

Deno.test("imagePalette() decodes one entry of an ICO, however many point at a large PNG", async () => {
  const image = fx.png(300, 300, (x) => x < 200 ? RED : WHITE);
  const count = 20_000;
  const offset = 6 + count * 16;
  const entry = [0, 0, 0, 0, ...fx.le(1, 2), ...fx.le(32, 2), ...fx.le(image.length, 4)];
  const ico = fx.concat(
    [0, 0, 1, 0, ...fx.le(count, 2)],
    ...Array.from({ length: count }, () => [...entry, ...fx.le(offset, 4)]),
    image,
  );
  // 20,000 decodes of the same 300x300 PNG took 23 s, past any probe's deadline; one is enough.
  assert.deepEqual(await imagePaletteAsync(ico, { timeoutMs: 5000 }), imagePalette(image));
});
