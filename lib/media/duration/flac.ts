/** FLAC duration: total samples over sample rate, from STREAMINFO (the first metadata block). */
import { ascii } from "../_bytes.ts";

export function flacDuration(b: Uint8Array): number | null {
  if (ascii(b, 0, 4) !== "fLaC" || b.length < 8 + 18 || (b[4]! & 0x7f) !== 0) return null;
  const s = 8; // STREAMINFO body
  // Bits 80..99: sample rate (20 bits); 108..143: total samples (36 bits).
  const sampleRate = (b[s + 10]! << 12) | (b[s + 11]! << 4) | (b[s + 12]! >> 4);
  const samples = (b[s + 13]! & 0x0f) * 2 ** 32 +
    ((b[s + 14]! << 24) >>> 0) + ((b[s + 15]! << 16) | (b[s + 16]! << 8) | b[s + 17]!);
  return sampleRate > 0 && samples > 0 ? samples / sampleRate : null;
}
