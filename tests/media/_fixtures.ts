/**
 * Media files built in the test: real encoders (pngjs, jpeg-js, omggif) where a pure-JS one
 * exists, hand-built headers laid out per each format's spec elsewhere.
 */
import { PNG } from "pngjs";
import jpegJs from "jpeg-js";
import { GifWriter } from "omggif";
import { concatBytes } from "../../lib/util/bytes.ts";

const enc = new TextEncoder();

export function concat(...parts: (Uint8Array | number[] | string)[]): Uint8Array {
  return concatBytes(
    parts.map((p) =>
      typeof p === "string" ? latin1(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)
    ),
  );
}

/** One byte per char code (for binary tags like "\x01vorbis"). */
export function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export function be(n: number, bytes: number): number[] {
  return Array.from({ length: bytes }, (_, i) => Math.floor(n / 256 ** (bytes - 1 - i)) % 256);
}

export function le(n: number, bytes: number): number[] {
  return Array.from({ length: bytes }, (_, i) => Math.floor(n / 256 ** i) % 256);
}

// ---------- images ----------

export type Rgb = [number, number, number];

/** A real PNG; `pick(x, y)` gives each pixel's colour (default a single colour). */
export function png(width: number, height: number, pick: (x: number, y: number) => Rgb = () => [
  200,
  30,
  30,
]): Uint8Array {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pick(x, y);
      const i = (y * width + x) * 4;
      image.data[i] = r;
      image.data[i + 1] = g;
      image.data[i + 2] = b;
      image.data[i + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(image));
}

/** A real baseline JPEG, optionally with an EXIF APP1 segment (orientation, padding). */
export function jpeg(
  width: number,
  height: number,
  options: { pick?: (x: number, y: number) => Rgb; exifOrientation?: number; exifPad?: number } =
    {},
): Uint8Array {
  const pick = options.pick ?? (() => [20, 120, 220]);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pick(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  const encoded = new Uint8Array(jpegJs.encode({ data, width, height }, 90).data);
  if (options.exifOrientation === undefined && !options.exifPad) return encoded;
  // Big-endian TIFF with one IFD entry: Orientation (0x0112, SHORT, 1).
  const tiff = concat(
    "MM",
    [0, 42],
    be(8, 4),
    be(1, 2),
    be(0x0112, 2),
    be(3, 2),
    be(1, 4),
    [
      ...be(options.exifOrientation ?? 1, 2),
      0,
      0,
    ],
    be(0, 4),
    new Uint8Array(options.exifPad ?? 0),
  );
  const body = concat("Exif\0\0", tiff);
  const app1 = concat([0xff, 0xe1], be(body.length + 2, 2), body);
  return concat(encoded.subarray(0, 2), app1, encoded.subarray(2));
}

/**
 * A progressive grey JPEG (ITU T.81, SOF2) of `scans` AC scans, each coding every block as one
 * end-of-band run: an AC table whose one code, `0`, means EOBRUN with 14 more bits, so each
 * run of 32,768 blocks costs 15 bits. Decoders show it mid-grey.
 */
export function progressiveJpeg(width: number, height: number, scans: number): Uint8Array {
  const runs = Math.ceil((Math.ceil(width / 8) * Math.ceil(height / 8)) / 32768);
  const bits = ("0" + "1".repeat(14)).repeat(runs).padEnd(Math.ceil((runs * 15) / 8) * 8, "1");
  const entropy = Array.from(
    { length: bits.length / 8 },
    (_, i) => parseInt(bits.slice(i * 8, i * 8 + 8), 2),
  ).flatMap((b) => b === 0xff ? [b, 0] : [b]);
  // SOS: one component (1), tables 0/0, spectral band 1..63, no successive approximation.
  const scan = [0xff, 0xda, ...be(8, 2), 1, 1, 0x00, 1, 63, 0x00, ...entropy];
  return concat(
    [0xff, 0xd8],
    [0xff, 0xdb, ...be(67, 2), 0, ...new Array(64).fill(1)], // DQT: table 0, all ones
    [0xff, 0xc2, ...be(11, 2), 8, ...be(height, 2), ...be(width, 2), 1, 1, 0x11, 0], // SOF2
    [0xff, 0xc4, ...be(20, 2), 0x10, 1, ...new Array(15).fill(0), 0xe0], // DHT: AC 0, `0` -> E0
    ...Array.from({ length: scans }, () => scan),
    [0xff, 0xd9],
  );
}

/** A real GIF (one frame, two-colour palette). */
export function gif(width: number, height: number): Uint8Array {
  const buf = new Uint8Array(1024 + width * height * 2);
  const writer = new GifWriter(buf, width, height, { palette: [0xff0000, 0x0000ff] });
  const pixels = Array.from({ length: width * height }, (_, i) => i % 2);
  writer.addFrame(0, 0, width, height, pixels);
  return buf.slice(0, writer.end());
}

function riff(form: string, chunks: Uint8Array[]): Uint8Array {
  const body = concat(form, ...chunks);
  return concat("RIFF", le(body.length, 4), body);
}

function chunk(id: string, data: Uint8Array | number[]): Uint8Array {
  const bytes = data instanceof Uint8Array ? data : Uint8Array.from(data);
  return concat(id, le(bytes.length, 4), bytes, bytes.length % 2 ? [0] : []);
}

/** WebP headers: lossy VP8 keyframe, lossless VP8L, or extended VP8X canvas. */
export function webp(kind: "VP8" | "VP8L" | "VP8X", width: number, height: number): Uint8Array {
  if (kind === "VP8") {
    const frame = concat([0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a], le(width, 2), le(height, 2), [
      0,
      0,
      0,
      0,
    ]);
    return riff("WEBP", [chunk("VP8 ", frame)]);
  }
  if (kind === "VP8L") {
    const bits = (width - 1) | ((height - 1) << 14);
    return riff("WEBP", [chunk("VP8L", concat([0x2f], le(bits >>> 0, 4), [0, 0, 0]))]);
  }
  return riff("WEBP", [
    chunk("VP8X", concat([0x10, 0, 0, 0], le(width - 1, 3), le(height - 1, 3))),
    chunk("ALPH", [0, 0]),
  ]);
}

export function svg(attrs: string): Uint8Array {
  return enc.encode(
    `<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" ${attrs}>` +
      `<rect width="10" height="10"/></svg>`,
  );
}

/** ICO directory with one entry per size (0 stands for 256), each pointing at dummy data. */
export function ico(sizes: [number, number][]): Uint8Array {
  const entries = sizes.map(([w, h], i) =>
    concat([w, h, 0, 0], le(1, 2), le(32, 2), le(40, 4), le(6 + sizes.length * 16 + i * 40, 4))
  );
  return concat([0, 0, 1, 0], le(sizes.length, 2), ...entries, new Uint8Array(40 * sizes.length));
}

export function bmp(width: number, height: number): Uint8Array {
  const info = concat(le(40, 4), le(width, 4), le(-height >>> 0, 4), le(1, 2), le(24, 2));
  return concat("BM", le(54, 4), [0, 0, 0, 0], le(54, 4), info, new Uint8Array(24));
}

function box(type: string, ...body: (Uint8Array | number[] | string)[]): Uint8Array {
  const content = concat(...body);
  return concat(be(content.length + 8, 4), type, content);
}

/** AVIF: ftyp + meta > iprp > ipco > ispe (a thumbnail ispe first, then the primary image). */
export function avif(width: number, height: number): Uint8Array {
  const ispe = (w: number, h: number) => box("ispe", [0, 0, 0, 0], be(w, 4), be(h, 4));
  return concat(
    box("ftyp", "avif", be(0, 4), "avifmif1miaf"),
    box("meta", [0, 0, 0, 0], box("iprp", box("ipco", ispe(64, 64), ispe(width, height)))),
  );
}

// ---------- audio / video ----------

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo: 417-byte frames. */
export const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0x64];
export const MP3_FRAME_BYTES = 417;

function id3(size: number): Uint8Array {
  const syncsafe = [(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f];
  return concat("ID3", [4, 0, 0], syncsafe, new Uint8Array(size));
}

function mp3Frame(extra: Uint8Array = new Uint8Array()): Uint8Array {
  const frame = new Uint8Array(MP3_FRAME_BYTES);
  frame.set(MP3_FRAME_HEADER);
  frame.set(extra, 4);
  return frame;
}

/** CBR MP3: an ID3v2 tag, then `frames` frames of 1152 samples. */
export function mp3Cbr(frames: number, tagBytes = 1000): Uint8Array {
  return concat(id3(tagBytes), ...Array.from({ length: frames }, () => mp3Frame()));
}

/** VBR MP3 whose first frame carries a Xing (or VBRI) header counting `frames` frames. */
export function mp3Vbr(frames: number, header: "Xing" | "Info" | "VBRI"): Uint8Array {
  const first = header === "VBRI"
    ? concat(
      new Uint8Array(32),
      "VBRI",
      be(1, 2),
      be(0, 2),
      be(75, 2),
      be(999999, 4),
      be(
        frames,
        4,
      ),
    )
    : concat(new Uint8Array(32), header, be(0x0f, 4), be(frames, 4), be(999999, 4));
  return concat(id3(200), mp3Frame(first), mp3Frame(), mp3Frame());
}

/** PCM WAV: 44.1 kHz stereo 16-bit (176400 bytes/s) holding `seconds` of silence. */
export function wav(seconds: number, options: { streamed?: boolean } = {}): Uint8Array {
  const fmt = concat(le(1, 2), le(2, 2), le(44100, 4), le(176400, 4), le(4, 2), le(16, 2));
  const dataBytes = Math.round(seconds * 176400);
  const data = concat(
    "data",
    le(options.streamed ? 0xffffffff : dataBytes, 4),
    new Uint8Array(dataBytes),
  );
  return concat(riff("WAVE", [chunk("fmt ", fmt), chunk("LIST", latin1("INFOxxxx"))]), data);
}

/** MP4: ftyp, then moov/mvhd (version 0 or 1) and mdat, in either order. */
export function mp4(
  options: {
    timescale: number;
    duration: number;
    version?: 0 | 1;
    moovLast?: boolean;
    brand?: string;
    mdatBytes?: number;
  },
): Uint8Array {
  const version = options.version ?? 0;
  const times = version === 1
    ? concat(be(0, 8), be(0, 8), be(options.timescale, 4), be(options.duration, 8))
    : concat(be(0, 4), be(0, 4), be(options.timescale, 4), be(options.duration, 4));
  const mvhd = box("mvhd", [version, 0, 0, 0], times, be(0x00010000, 4), new Uint8Array(76));
  const moov = box("moov", mvhd, box("trak", box("tkhd", new Uint8Array(84))));
  const mdat = box("mdat", new Uint8Array(options.mdatBytes ?? 1000));
  const ftyp = box("ftyp", options.brand ?? "isom", be(512, 4), "isomiso2mp41");
  return options.moovLast ? concat(ftyp, mdat, moov) : concat(ftyp, moov, mdat);
}

function ebmlSize(n: number): number[] {
  // 8-byte size form: marker 0x01 then 7 bytes.
  return [0x01, ...be(n, 7)];
}

function ebml(id: number[], ...body: Uint8Array[]): Uint8Array {
  const content = concat(...body);
  return concat(id, ebmlSize(content.length), content);
}

/** WebM: EBML header, Segment of unknown size holding SeekHead, Info, then a Cluster. */
export function webm(
  options: { duration: number; timecodeScale?: number; float32?: boolean },
): Uint8Array {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    ebml([0x42, 0x82], latin1("webm")),
    ebml([0x42, 0x87], Uint8Array.from([4])),
  );
  const value = new Uint8Array(options.float32 ? 4 : 8);
  const view = new DataView(value.buffer);
  if (options.float32) view.setFloat32(0, options.duration);
  else view.setFloat64(0, options.duration);
  const info = ebml(
    [0x15, 0x49, 0xa9, 0x66],
    ...(options.timecodeScale === undefined
      ? []
      : [ebml([0x2a, 0xd7, 0xb1], Uint8Array.from(be(options.timecodeScale, 4)))]),
    ebml([0x44, 0x89], value),
    ebml([0x4d, 0x80], latin1("linkpeek-test")),
  );
  const seekHead = ebml([0x11, 0x4d, 0x9b, 0x74], new Uint8Array(20));
  const cluster = ebml([0x1f, 0x43, 0xb6, 0x75], new Uint8Array(500));
  const unknownSize = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
  return concat(header, [0x18, 0x53, 0x80, 0x67], unknownSize, seekHead, info, cluster);
}

function oggPage(granule: number, payload: Uint8Array, sequence: number): Uint8Array {
  const segments: number[] = [];
  let left = payload.length;
  while (left >= 255) {
    segments.push(255);
    left -= 255;
  }
  segments.push(left);
  return concat(
    "OggS",
    [0, sequence === 0 ? 2 : 0],
    le(granule, 8),
    le(0x1234, 4),
    le(sequence, 4),
    le(0, 4),
    [segments.length],
    segments,
    payload,
  );
}

/** Ogg Vorbis (rate, nominal bitrate) or Opus (pre-skip) ending at granule `lastGranule`. */
export function ogg(
  options: {
    codec: "vorbis" | "opus";
    rate?: number;
    nominalBitrate?: number;
    preSkip?: number;
    lastGranule: number;
    pages?: number;
  },
): Uint8Array {
  const id = options.codec === "vorbis"
    ? concat(
      "\x01vorbis",
      le(0, 4),
      [2],
      le(options.rate ?? 44100, 4),
      le(0, 4),
      le(options.nominalBitrate ?? 0, 4),
      le(0, 4),
      [0xb8, 1],
    )
    : concat("OpusHead", [1, 2], le(options.preSkip ?? 0, 2), le(48000, 4), [0, 0, 0]);
  const pages = [oggPage(0, id, 0)];
  const count = options.pages ?? 5;
  for (let i = 1; i <= count; i++) {
    pages.push(oggPage(Math.round((options.lastGranule * i) / count), new Uint8Array(4000), i));
  }
  return concat(...pages);
}

/** FLAC: "fLaC" + STREAMINFO (last metadata block) for `samples` at `rate`. */
export function flac(rate: number, samples: number): Uint8Array {
  const info = new Uint8Array(34);
  info.set(be(4096, 2), 0);
  info.set(be(4096, 2), 2);
  // 20 bits rate, 3 bits channels-1 (1), 5 bits bps-1 (15), 36 bits samples.
  info[10] = (rate >> 12) & 0xff;
  info[11] = (rate >> 4) & 0xff;
  info[12] = ((rate & 0x0f) << 4) | (1 << 1) | (15 >> 4);
  info[13] = ((15 & 0x0f) << 4) | Math.floor(samples / 2 ** 32);
  info.set(be(samples % 2 ** 32, 4), 14);
  return concat("fLaC", [0x80, 0, 0, 34], info, new Uint8Array(100));
}
