/**
 * Dominant colours of an image (`palette=true`): decode with pure-JS decoders, sample at most
 * ~10k pixels on a grid, bucket them, merge near buckets, and pick a readable text colour.
 */
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import jpegJs from "jpeg-js";
import { GifReader } from "omggif";
import { inflateSync } from "node:zlib";
import { ascii, u16le, u32be, u32le, u8 } from "./_bytes.ts";
import { concatBytes } from "../util/bytes.ts";
import { imageSize } from "./image_size.ts";
import { typeFromBytes } from "./sniff.ts";

export interface Palette {
  /** Dominant colours, most common first, `#rrggbb`. */
  palette: string[];
  background_color: string;
  /** Readable on background_color. */
  color: string;
  alternative_color: string;
}

interface Pixels {
  width: number;
  height: number;
  /** RGBA, row-major. */
  data: Uint8Array;
}

/** Bigger images are not decoded: the memory and time are not worth a palette. */
const MAX_PIXELS = 16_000_000;
const SAMPLES_PER_SIDE = 100;
const MAX_COLORS = 6;
/** Colours closer than this (RGB distance) are one palette entry. */
const MERGE_DISTANCE = 48;

/** PNG colour type -> channels per pixel. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: first column, first row, column step, row step. */
const ADAM7: readonly (readonly [number, number, number, number])[] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/** Bytes an interlaced image's data inflates to: each pass's rows, each with a filter byte. */
function interlacedBytes(width: number, height: number, bitsPerPixel: number): number {
  let total = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const columns = Math.ceil((width - x0) / dx);
    const rows = Math.ceil((height - y0) / dy);
    if (columns > 0 && rows > 0) total += rows * (1 + Math.ceil((columns * bitsPerPixel) / 8));
  }
  return total;
}

/** The PNG's IDAT chunks' bodies joined: its zlib stream. */
function pngData(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = u32be(bytes, at)!;
    const type = ascii(bytes, at + 4, 4);
    if (type === "IEND") break;
    if (type === "IDAT") parts.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return concatBytes(parts);
}

/**
 * pngjs inflates an interlaced PNG's data without a bound (a 1 MB file of zeros became 2 GB):
 * its inflated size must not pass what the header's size and pixel format allow. Throws if so.
 */
function refuseInterlacedBomb(bytes: Uint8Array): void {
  if (u8(bytes, 28) !== 1) return; // not interlaced: pngjs bounds the inflate itself
  const dims = imageSize(bytes, "png");
  const bits = (PNG_CHANNELS[u8(bytes, 25) ?? -1] ?? 4) * (u8(bytes, 24) ?? 16);
  if (!dims) throw new Error("PNG without a size");
  const maxOutputLength = interlacedBytes(dims.width, dims.height, bits);
  inflateSync(pngData(bytes), { maxOutputLength }); // RangeError past the bound
}

function decodePng(bytes: Uint8Array): Pixels {
  refuseInterlacedBomb(bytes);
  const image = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
}

/**
 * Scans a JPEG may have: encoders write a dozen or so. Each scan is a walk over every block of
 * the image, and one that skips them all fits in a few bytes: 1,000 such scans of a 4000 x 4000
 * image, 32 KB, took 2 s (a 5 MB file, minutes, in a worker nothing can stop).
 */
const MAX_JPEG_SCANS = 100;

/** Bytes FF DA (start of scan), counted up to `max + 1`: every scan decoded starts at one. */
function scanMarkers(bytes: Uint8Array, max: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0xff); at >= 0 && count <= max; at = bytes.indexOf(0xff, at + 1)) {
    if (bytes[at + 1] === 0xda) count++;
  }
  return count;
}

function decodeJpeg(bytes: Uint8Array): Pixels {
  if (scanMarkers(bytes, MAX_JPEG_SCANS) > MAX_JPEG_SCANS) throw new Error("too many scans");
  const image = jpegJs.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    tolerantDecoding: true,
    maxResolutionInMP: MAX_PIXELS / 1e6,
    maxMemoryUsageInMB: 256,
  });
  return { width: image.width, height: image.height, data: image.data };
}

function decodeGif(bytes: Uint8Array): Pixels {
  const reader = new GifReader(bytes);
  // A frame may declare more pixels than the screen (which decode() checked): omggif walks them
  // all, 216 s for a 65535 x 65535 frame of a 1 x 1 GIF.
  const frame = reader.frameInfo(0);
  if (frame.width * frame.height > MAX_PIXELS) throw new Error("GIF frame too large");
  const data = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data);
  return { width: reader.width, height: reader.height, data };
}

/** 32-bit BMP inside an ICO entry: bottom-up BGRA, height doubled for the AND mask. */
function decodeIcoBmp(bytes: Uint8Array): Pixels | null {
  const width = u32le(bytes, 4);
  const doubled = u32le(bytes, 8);
  const header = u32le(bytes, 0);
  if (!width || !doubled || !header || u16le(bytes, 14) !== 32) return null;
  const height = doubled / 2;
  if (bytes.length < header + width * height * 4) return null;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = header + ((height - 1 - y) * width + x) * 4;
      const to = (y * width + x) * 4;
      data[to] = bytes[from + 2]!;
      data[to + 1] = bytes[from + 1]!;
      data[to + 2] = bytes[from]!;
      data[to + 3] = bytes[from + 3]!;
    }
  }
  return { width, height, data };
}

/**
 * The largest ICO entry that is an embedded PNG or a 32-bit BMP. Entries are compared by the
 * sizes their own headers give, and only the chosen one is decoded: 65,535 entries may all
 * point at one large PNG.
 */
function decodeIco(bytes: Uint8Array): Pixels | null {
  const count = u16le(bytes, 4) ?? 0;
  let best: { image: Uint8Array; png: boolean; width: number } | null = null;
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    const length = u32le(bytes, entry + 8);
    const offset = u32le(bytes, entry + 12);
    if (length === null || offset === null || offset + length > bytes.length) continue;
    const image = bytes.subarray(offset, offset + length);
    const png = u8(image, 0) === 0x89;
    const dims = png
      ? imageSize(image, "png")
      : { width: u32le(image, 4) ?? 0, height: (u32le(image, 8) ?? 0) / 2 };
    if (!dims || dims.width * dims.height > MAX_PIXELS) continue;
    if (!best || dims.width > best.width) best = { image, png, width: dims.width };
  }
  if (!best) return null;
  return best.png ? decodePng(best.image) : decodeIcoBmp(best.image);
}

function decode(bytes: Uint8Array): Pixels | null {
  const type = typeFromBytes(bytes);
  const dims = imageSize(bytes, type);
  if (dims && dims.width * dims.height > MAX_PIXELS) return null;
  switch (type) {
    case "png":
      return decodePng(bytes);
    case "jpg":
      return decodeJpeg(bytes);
    case "gif":
      return decodeGif(bytes);
    case "ico":
      return decodeIco(bytes);
    default:
      return null; // WebP, AVIF, SVG: no well-kept pure-JS decoder
  }
}

interface Cluster {
  count: number;
  r: number;
  g: number;
  b: number;
}

/** Counts of opaque pixels on a grid, bucketed by the top 4 bits of each channel. */
function buckets(pixels: Pixels): Cluster[] {
  const map = new Map<number, Cluster>();
  const stepX = Math.max(1, pixels.width / SAMPLES_PER_SIDE);
  const stepY = Math.max(1, pixels.height / SAMPLES_PER_SIDE);
  for (let fy = 0; fy < pixels.height; fy += stepY) {
    for (let fx = 0; fx < pixels.width; fx += stepX) {
      const i = (Math.floor(fy) * pixels.width + Math.floor(fx)) * 4;
      if (pixels.data[i + 3]! < 128) continue; // transparent pixels are not the image's colour
      const r = pixels.data[i]!;
      const g = pixels.data[i + 1]!;
      const b = pixels.data[i + 2]!;
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      const bucket = map.get(key) ?? { count: 0, r: 0, g: 0, b: 0 };
      bucket.count++;
      bucket.r += r;
      bucket.g += g;
      bucket.b += b;
      map.set(key, bucket);
    }
  }
  // Sums -> means.
  return [...map.values()].map((c) => ({
    count: c.count,
    r: c.r / c.count,
    g: c.g / c.count,
    b: c.b / c.count,
  }));
}

function merge(clusters: Cluster[]): Cluster[] {
  const merged: Cluster[] = [];
  for (const c of clusters.sort((a, b) => b.count - a.count)) {
    const near = merged.find((m) => Math.hypot(m.r - c.r, m.g - c.g, m.b - c.b) < MERGE_DISTANCE);
    if (!near) {
      merged.push({ ...c });
      continue;
    }
    const total = near.count + c.count;
    near.r = (near.r * near.count + c.r * c.count) / total;
    near.g = (near.g * near.count + c.g * c.count) / total;
    near.b = (near.b * near.count + c.b * c.count) / total;
    near.count = total;
  }
  return merged.sort((a, b) => b.count - a.count);
}

function hex(c: { r: number; g: number; b: number }): string {
  return "#" + [c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
}

function luminance(color: string): number {
  const channel = (at: number) => {
    const v = parseInt(color.slice(at, at + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2 contrast ratio, 1..21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Text colours on the background: palette colours with contrast >= 3, else black or white. */
function readable(palette: string[]): Pick<Palette, "color" | "alternative_color"> {
  const background = palette[0]!;
  const ranked = palette.slice(1).sort((a, b) => contrast(b, background) - contrast(a, background));
  const good = ranked.filter((c) => contrast(c, background) >= 3);
  const blackOrWhite = contrast("#ffffff", background) >= contrast("#000000", background)
    ? "#ffffff"
    : "#000000";
  const color = good[0] ?? blackOrWhite;
  const other = blackOrWhite === "#ffffff" ? "#000000" : "#ffffff";
  const alternative = good[1] ?? (color === blackOrWhite ? ranked[0] ?? other : blackOrWhite);
  return { color, alternative_color: alternative };
}

/** The image's palette, or null when it cannot be decoded (or has no opaque pixel). */
export function imagePalette(bytes: Uint8Array): Palette | null {
  let pixels: Pixels | null;
  try {
    pixels = decode(bytes);
  } catch {
    return null; // truncated or corrupt: no palette rather than a failed request
  }
  if (!pixels || !pixels.width || !pixels.height) return null;
  const palette = merge(buckets(pixels)).slice(0, MAX_COLORS).map(hex);
  if (!palette.length) return null;
  return { palette, background_color: palette[0]!, ...readable(palette) };
}
