/**
 * Image width and height from the file's own header, given a prefix of it (64 KB is plenty
 * for every format here except a JPEG with a huge EXIF/ICC block before its SOF marker).
 */
import { ascii, indexOfAscii, u16be, u16le, u24le, u32be, u32le, u8 } from "./_bytes.ts";
import { typeFromBytes } from "./sniff.ts";

export interface ImageSize {
  width: number;
  height: number;
}

function size(width: number | null, height: number | null): ImageSize | null {
  if (width === null || height === null || width <= 0 || height <= 0) return null;
  return { width, height };
}

function png(b: Uint8Array): ImageSize | null {
  // IHDR is always the first chunk: width and height at 16 and 20.
  if (ascii(b, 12, 4) !== "IHDR") return null;
  return size(u32be(b, 16), u32be(b, 20));
}

function gif(b: Uint8Array): ImageSize | null {
  return size(u16le(b, 6), u16le(b, 8));
}

function bmp(b: Uint8Array): ImageSize | null {
  const header = u32le(b, 14);
  if (header === 12) return size(u16le(b, 18), u16le(b, 20)); // OS/2 BITMAPCOREHEADER
  if (b.length < 26) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // Height is negative for top-down bitmaps.
  return size(Math.abs(view.getInt32(18, true)), Math.abs(view.getInt32(22, true)));
}

function webp(b: Uint8Array): ImageSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 ") {
    // Lossy: a keyframe start code 9d 01 2a, then 14-bit width and height.
    if (u8(b, 23) !== 0x9d || u8(b, 24) !== 0x01 || u8(b, 25) !== 0x2a) return null;
    const w = u16le(b, 26);
    const h = u16le(b, 28);
    return w === null || h === null ? null : size(w & 0x3fff, h & 0x3fff);
  }
  if (chunk === "VP8L") {
    // Lossless: signature 0x2f, then 14 bits width-1 and 14 bits height-1, little-endian.
    if (u8(b, 20) !== 0x2f) return null;
    const bits = u32le(b, 21);
    if (bits === null) return null;
    return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X") {
    // Extended: 24-bit canvas width-1 and height-1.
    const w = u24le(b, 24);
    const h = u24le(b, 27);
    return w === null || h === null ? null : size(w + 1, h + 1);
  }
  return null;
}

/** JPEG orientations 5-8 rotate by 90 degrees: the displayed image is height x width. */
function exifRotates(b: Uint8Array, start: number, end: number): boolean {
  if (ascii(b, start, 6) !== "Exif\0\0") return false;
  const tiff = start + 6;
  const little = ascii(b, tiff, 2) === "II";
  const r16 = (at: number) => little ? u16le(b, at) : u16be(b, at);
  const r32 = (at: number) => little ? u32le(b, at) : u32be(b, at);
  const ifd = r32(tiff + 4);
  if (ifd === null) return false;
  const count = r16(tiff + ifd) ?? 0;
  for (let i = 0; i < count; i++) {
    const entry = tiff + ifd + 2 + i * 12;
    if (entry + 12 > end) return false;
    if (r16(entry) === 0x0112) {
      const orientation = r16(entry + 8) ?? 1;
      return orientation >= 5 && orientation <= 8;
    }
  }
  return false;
}

function jpeg(b: Uint8Array): ImageSize | null {
  let at = 2;
  let rotated = false;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) { // fill byte
      at++;
      continue;
    }
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(b, at + 2);
    if (length === null || length < 2) return null;
    // SOF0..SOF15 except DHT (c4), JPG (c8) and DAC (cc): height then width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const found = size(u16be(b, at + 7), u16be(b, at + 5));
      if (found && rotated) return { width: found.height, height: found.width };
      return found;
    }
    if (marker === 0xe1) rotated = rotated || exifRotates(b, at + 4, at + 2 + length);
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan
    at += 2 + length;
  }
  return null;
}

function ico(b: Uint8Array): ImageSize | null {
  const count = u16le(b, 4) ?? 0;
  let best: ImageSize | null = null;
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    const w = u8(b, entry);
    const h = u8(b, entry + 1);
    if (w === null || h === null) break;
    const found = { width: w || 256, height: h || 256 };
    if (!best || found.width * found.height > best.width * best.height) best = found;
  }
  return best;
}

/** Largest `ispe` (image spatial extent) property in an AVIF/HEIC file. */
function heif(b: Uint8Array): ImageSize | null {
  let best: ImageSize | null = null;
  for (let at = indexOfAscii(b, "ispe"); at >= 0; at = indexOfAscii(b, "ispe", at + 4)) {
    const found = size(u32be(b, at + 8), u32be(b, at + 12));
    if (found && (!best || found.width * found.height > best.width * best.height)) best = found;
  }
  return best;
}

/**
 * A CSS length in px (or unitless); other units cannot be turned into pixels. The number's two
 * forms do not overlap: `[0-9]*\.?[0-9]+` split a run of digits every way (seconds for 20 KB).
 */
function svgLength(value: string | undefined): number | null {
  const match = value ? /^(\d*\.\d+|\d+)\s*(?:px)?$/i.exec(value.trim()) : null;
  return match ? Number(match[1]) : null;
}

/**
 * The root `<svg>` opens within a file's first bytes (after an XML declaration, comments, a
 * DOCTYPE); a whole 5 MB drawing decoded and scanned for it held the event loop ~150 ms.
 */
const SVG_HEAD_BYTES = 64 * 1024;

function svg(b: Uint8Array): ImageSize | null {
  const text = new TextDecoder().decode(b.subarray(0, SVG_HEAD_BYTES));
  // `[^<>]`: an `<svg` never closed ends at the next tag instead of at the end of the bytes.
  const tag = /<svg\b([^<>]*)>/i.exec(text)?.[1];
  if (tag === undefined) return null;
  const attrs: Record<string, string> = {};
  // A name starts only where a name character does not precede it: else each of a long word's
  // characters started a try reading to the word's end (seconds for a 30 KB one).
  for (const m of tag.matchAll(/(?<![\w:-])([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attrs[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? "";
  }
  let width = svgLength(attrs.width);
  let height = svgLength(attrs.height);
  const box = attrs.viewbox?.trim().split(/[\s,]+/).map(Number);
  const vw = box?.length === 4 ? box[2]! : NaN;
  const vh = box?.length === 4 ? box[3]! : NaN;
  if (vw > 0 && vh > 0) {
    // A missing side follows the viewBox's aspect ratio.
    if (width === null && height === null) [width, height] = [vw, vh];
    else if (width === null && height !== null) width = (height * vw) / vh;
    else if (height === null && width !== null) height = (width * vh) / vw;
  }
  return width === null || height === null ? null : size(Math.round(width), Math.round(height));
}

const READERS: Record<string, (b: Uint8Array) => ImageSize | null> = {
  png,
  jpg: jpeg,
  gif,
  bmp,
  webp,
  ico,
  cur: ico,
  avif: heif,
  heic: heif,
  svg,
};

/** Width and height from the header bytes; null when the format or bytes do not tell. */
export function imageSize(bytes: Uint8Array, type?: string | null): ImageSize | null {
  const format = typeFromBytes(bytes) ?? type ?? null;
  const reader = format ? READERS[format] : undefined;
  try {
    return reader ? reader(bytes) : null;
  } catch {
    return null;
  }
}
