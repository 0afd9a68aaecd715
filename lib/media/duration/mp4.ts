/**
 * MP4/M4A/MOV duration from moov/mvhd (timescale and duration). Files written for streaming put
 * moov first; others put it after mdat, beyond a 64 KB prefix: `mp4MoovOffset` then says where
 * to read next.
 */
import { ascii, u32be, u64be } from "../_bytes.ts";

interface Box {
  type: string;
  start: number;
  /** First byte of the box's body. */
  body: number;
  /** One past the box's last byte (may lie beyond the bytes we hold). */
  end: number;
}

function readBox(b: Uint8Array, at: number, limit: number): Box | null {
  const size32 = u32be(b, at);
  const type = ascii(b, at + 4, 4);
  if (size32 === null || type.length !== 4) return null;
  if (size32 === 1) {
    const size64 = u64be(b, at + 8);
    return size64 === null || size64 < 16
      ? null
      : { type, start: at, body: at + 16, end: at + size64 };
  }
  if (size32 === 0) return { type, start: at, body: at + 8, end: limit }; // to end of file
  return size32 < 8 ? null : { type, start: at, body: at + 8, end: at + size32 };
}

function mvhd(b: Uint8Array, body: number): number | null {
  const version = b[body];
  const timescale = version === 1 ? u32be(b, body + 20) : u32be(b, body + 12);
  const duration = version === 1 ? u64be(b, body + 24) : u32be(b, body + 16);
  if (!timescale || duration === null || duration === 0xffffffff || duration === 0) return null;
  return duration / timescale;
}

/** Duration from the first moov/mvhd in `b`, which must start at a box boundary. */
export function mp4Duration(b: Uint8Array): number | null {
  for (let at = 0; at + 8 <= b.length;) {
    const box = readBox(b, at, Number.MAX_SAFE_INTEGER);
    if (!box) return null;
    if (box.type === "moov") {
      for (let child = box.body; child + 8 <= Math.min(b.length, box.end);) {
        const inner = readBox(b, child, box.end);
        if (!inner) return null;
        if (inner.type === "mvhd") return mvhd(b, inner.body);
        child = inner.end;
      }
      return null;
    }
    at = box.end;
  }
  return null;
}

/**
 * Where the first top-level box lying beyond the prefix starts, when no moov was seen in it
 * (the moov most likely sits there); null when the prefix already holds moov or is not MP4.
 */
export function mp4MoovOffset(b: Uint8Array, totalSize: number | null): number | null {
  if (ascii(b, 4, 4) !== "ftyp") return null;
  let at = 0;
  while (at + 8 <= b.length) {
    const box = readBox(b, at, totalSize ?? Number.MAX_SAFE_INTEGER);
    if (!box || box.type === "moov") return null;
    at = box.end;
  }
  return totalSize === null || at < totalSize ? at : null;
}
