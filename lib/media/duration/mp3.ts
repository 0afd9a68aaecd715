/** MP3 duration: Xing/Info or VBRI frame count when present, else CBR from bitrate and size. */
import { ascii, u32be } from "../_bytes.ts";

// kbit/s by [MPEG-1 ? 0 : 1][layer 1..3 -> 0..2][index].
const BITRATES = [
  [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
];
const SAMPLE_RATES = [44100, 48000, 32000];

interface Frame {
  offset: number;
  mpeg1: boolean;
  mono: boolean;
  bitrate: number;
  sampleRate: number;
  samplesPerFrame: number;
}

function parseFrame(b: Uint8Array, at: number): Frame | null {
  const b1 = b[at + 1] ?? 0;
  const b2 = b[at + 2] ?? 0;
  const b3 = b[at + 3] ?? 0;
  if (b[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3; // 0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1
  const layerBits = (b1 >> 1) & 3; // 1: III, 2: II, 3: I
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const mpeg1 = version === 3;
  const layer = 4 - layerBits;
  const divisor = mpeg1 ? 1 : version === 2 ? 2 : 4;
  return {
    offset: at,
    mpeg1,
    mono: b3 >> 6 === 3,
    bitrate: BITRATES[mpeg1 ? 0 : 1]![layer - 1]![bitrateIndex]! * 1000,
    sampleRate: SAMPLE_RATES[rateIndex]! / divisor,
    samplesPerFrame: layer === 1 ? 384 : layer === 3 && !mpeg1 ? 576 : 1152,
  };
}

/** Size of a leading ID3v2 tag (syncsafe size + header + optional footer). */
function id3Size(b: Uint8Array): number {
  if (ascii(b, 0, 3) !== "ID3" || b.length < 10) return 0;
  const tagSize = ((b[6]! & 0x7f) << 21) | ((b[7]! & 0x7f) << 14) | ((b[8]! & 0x7f) << 7) |
    (b[9]! & 0x7f);
  return 10 + tagSize + ((b[5]! & 0x10) ? 10 : 0);
}

/** Frames counted by a Xing/Info or VBRI header in the first frame, or null. */
function headerFrames(b: Uint8Array, frame: Frame): number | null {
  const sideInfo = frame.mpeg1 ? (frame.mono ? 17 : 32) : (frame.mono ? 9 : 17);
  const xing = frame.offset + 4 + sideInfo;
  const tag = ascii(b, xing, 4);
  if (tag === "Xing" || tag === "Info") {
    const flags = u32be(b, xing + 4) ?? 0;
    return flags & 1 ? u32be(b, xing + 8) : null;
  }
  const vbri = frame.offset + 36;
  if (ascii(b, vbri, 4) === "VBRI") return u32be(b, vbri + 14);
  return null;
}

export function mp3Duration(b: Uint8Array, totalSize: number | null): number | null {
  const start = id3Size(b);
  // Skip any padding between the tag and the first frame (bounded scan).
  let frame: Frame | null = null;
  for (let at = start; at < Math.min(b.length - 4, start + 8192) && !frame; at++) {
    frame = parseFrame(b, at);
  }
  if (!frame) return null;
  const frames = headerFrames(b, frame);
  if (frames) return (frames * frame.samplesPerFrame) / frame.sampleRate;
  if (totalSize === null || frame.bitrate <= 0) return null;
  const audioBytes = totalSize - frame.offset;
  return audioBytes > 0 ? (audioBytes * 8) / frame.bitrate : null;
}
