/**
 * Ogg (Vorbis, Opus) duration: the last page's granule position over the sample rate from the
 * identification header. The last page is only in the file's tail; without it a Vorbis file's
 * nominal bitrate and the total size give an estimate.
 */
import { ascii, lastIndexOfAscii, u16le, u32le, u64le } from "../_bytes.ts";

interface Stream {
  /** Samples per second that granule positions count. */
  rate: number;
  /** Opus: samples to drop from the start. */
  preSkip: number;
  /** Vorbis nominal bitrate (bit/s), 0 when not given. */
  nominalBitrate: number;
}

function identification(b: Uint8Array): Stream | null {
  if (ascii(b, 0, 4) !== "OggS") return null;
  const payload = 27 + (b[26] ?? 0);
  if (ascii(b, payload, 7) === "\x01vorbis") {
    const rate = u32le(b, payload + 12);
    const nominal = u32le(b, payload + 20) ?? 0;
    return rate ? { rate, preSkip: 0, nominalBitrate: nominal > 0x7fffffff ? 0 : nominal } : null;
  }
  if (ascii(b, payload, 8) === "OpusHead") {
    return { rate: 48000, preSkip: u16le(b, payload + 10) ?? 0, nominalBitrate: 0 };
  }
  return null;
}

/** Granule position of the last page found in `tail` (the end of the file), or null. */
function lastGranule(tail: Uint8Array): number | null {
  let at = lastIndexOfAscii(tail, "OggS");
  while (at >= 0) {
    const granule = u64le(tail, at + 6);
    // -1 (all ones) marks a page where no packet ends: look further back.
    if (granule !== null && granule < 2 ** 53) return granule;
    at = lastIndexOfAscii(tail.subarray(0, at), "OggS");
  }
  return null;
}

export function oggDuration(
  b: Uint8Array,
  input: { totalSize: number | null; tail?: Uint8Array | null },
): number | null {
  const stream = identification(b);
  if (!stream) return null;
  const whole = input.totalSize !== null && b.length >= input.totalSize;
  const tail = input.tail ?? (whole ? b : null);
  const granule = tail ? lastGranule(tail) : null;
  if (granule !== null && granule > stream.preSkip) {
    return (granule - stream.preSkip) / stream.rate;
  }
  if (stream.nominalBitrate > 0 && input.totalSize) {
    return (input.totalSize * 8) / stream.nominalBitrate;
  }
  return null;
}
