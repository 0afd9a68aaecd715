/** Bounds-checked readers over a byte prefix: out of range reads give null, never throw. */

export function ascii(bytes: Uint8Array, start: number, length: number): string {
  if (start < 0 || start + length > bytes.length) return "";
  let text = "";
  for (let i = start; i < start + length; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

export function u8(bytes: Uint8Array, at: number): number | null {
  return at >= 0 && at < bytes.length ? bytes[at]! : null;
}

export function u16be(bytes: Uint8Array, at: number): number | null {
  if (at < 0 || at + 2 > bytes.length) return null;
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

export function u16le(bytes: Uint8Array, at: number): number | null {
  if (at < 0 || at + 2 > bytes.length) return null;
  return bytes[at]! | (bytes[at + 1]! << 8);
}

export function u24le(bytes: Uint8Array, at: number): number | null {
  if (at < 0 || at + 3 > bytes.length) return null;
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

export function u32be(bytes: Uint8Array, at: number): number | null {
  if (at < 0 || at + 4 > bytes.length) return null;
  return ((bytes[at]! << 24) >>> 0) + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) |
    bytes[at + 3]!);
}

export function u32le(bytes: Uint8Array, at: number): number | null {
  if (at < 0 || at + 4 > bytes.length) return null;
  return ((bytes[at + 3]! << 24) >>> 0) + ((bytes[at + 2]! << 16) | (bytes[at + 1]! << 8) |
    bytes[at]!);
}

/** 64-bit big-endian as a Number (exact below 2^53, which covers any real file). */
export function u64be(bytes: Uint8Array, at: number): number | null {
  const high = u32be(bytes, at);
  const low = u32be(bytes, at + 4);
  return high === null || low === null ? null : high * 2 ** 32 + low;
}

export function u64le(bytes: Uint8Array, at: number): number | null {
  const low = u32le(bytes, at);
  const high = u32le(bytes, at + 4);
  return high === null || low === null ? null : high * 2 ** 32 + low;
}

/** Index of `pattern` (ASCII) in bytes at or after `from`, or -1. */
export function indexOfAscii(bytes: Uint8Array, pattern: string, from = 0): number {
  const first = pattern.charCodeAt(0);
  outer: for (let i = Math.max(0, from); i + pattern.length <= bytes.length; i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < pattern.length; j++) {
      if (bytes[i + j] !== pattern.charCodeAt(j)) continue outer;
    }
    return i;
  }
  return -1;
}

/** Last index of `pattern` (ASCII) in bytes, or -1. */
export function lastIndexOfAscii(bytes: Uint8Array, pattern: string): number {
  outer: for (let i = bytes.length - pattern.length; i >= 0; i--) {
    for (let j = 0; j < pattern.length; j++) {
      if (bytes[i + j] !== pattern.charCodeAt(j)) continue outer;
    }
    return i;
  }
  return -1;
}
