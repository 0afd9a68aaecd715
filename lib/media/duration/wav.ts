/** WAV duration: the data chunk's size over the fmt chunk's byte rate. */
import { ascii, u32le } from "../_bytes.ts";

export function wavDuration(b: Uint8Array, totalSize: number | null): number | null {
  if (ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WAVE") return null;
  let byteRate: number | null = null;
  let at = 12;
  while (at + 8 <= b.length) {
    const id = ascii(b, at, 4);
    const size = u32le(b, at + 4)!;
    if (id === "fmt ") byteRate = u32le(b, at + 16);
    if (id === "data") {
      if (!byteRate) return null;
      // Streamed files write 0 or 0xffffffff: the rest of the file is then the data.
      const streamed = size === 0 || size === 0xffffffff;
      const dataSize = streamed ? (totalSize === null ? null : totalSize - at - 8) : size;
      return dataSize === null || dataSize <= 0 ? null : dataSize / byteRate;
    }
    at += 8 + size + (size & 1); // chunks are padded to even sizes
  }
  return null;
}
