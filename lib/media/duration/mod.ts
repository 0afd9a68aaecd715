/** Audio/video duration in seconds from what the file's header tells, or null. */
import { flacDuration } from "./flac.ts";
import { matroskaDuration } from "./matroska.ts";
import { mp3Duration } from "./mp3.ts";
import { mp4Duration } from "./mp4.ts";
import { oggDuration } from "./ogg.ts";
import { wavDuration } from "./wav.ts";
import { typeFromBytes } from "../sniff.ts";

export { mp4MoovOffset } from "./mp4.ts";

export interface DurationInput {
  /** A prefix of the file (or all of it). */
  bytes: Uint8Array;
  /** The type from Content-Type or the URL, used when the bytes show no signature. */
  type?: string | null;
  /** The whole file's size, when known (CBR MP3 and streamed WAV need it). */
  totalSize?: number | null;
  /** The file's last bytes, when read: Ogg's last page is there. */
  tail?: Uint8Array | null;
}

export function mediaDuration(input: DurationInput): number | null {
  const { bytes } = input;
  const totalSize = input.totalSize ?? null;
  const format = typeFromBytes(bytes) ?? input.type ?? null;
  let seconds: number | null = null;
  try {
    switch (format) {
      case "mp3":
        seconds = mp3Duration(bytes, totalSize);
        break;
      case "wav":
        seconds = wavDuration(bytes, totalSize);
        break;
      case "flac":
        seconds = flacDuration(bytes);
        break;
      case "ogg":
      case "opus":
        seconds = oggDuration(bytes, { totalSize, tail: input.tail });
        break;
      case "webm":
      case "mkv":
      case "mka":
      case "weba":
        seconds = matroskaDuration(bytes);
        break;
      case "mp4":
      case "m4a":
      case "m4v":
      case "mov":
      case "3gp":
        seconds = mp4Duration(bytes);
        break;
    }
  } catch {
    return null; // a malformed header tells nothing
  }
  return seconds !== null && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}
