/** A MediaObject from what a probe (or a full fetch) returned: type, size, dimensions, duration. */
import type { MediaObject } from "../util/payload_types.ts";
import { mediaDuration } from "./duration/mod.ts";
import { imageSize } from "./image_size.ts";
import { prettyBytes, prettyDuration } from "./pretty.ts";
import { sniffMedia } from "./sniff.ts";

export interface DescribeInput {
  url: string;
  /** The file's first bytes (or all of it); may be empty (e.g. after a HEAD). */
  bytes: Uint8Array;
  contentType: string | null;
  /** The whole file's size (Content-Range total or Content-Length), when known. */
  totalSize: number | null;
  /** The file's last bytes, when read (Ogg durations). */
  tail?: Uint8Array | null;
}

export function describeMedia(input: DescribeInput): MediaObject {
  const { type, kind } = sniffMedia(input);
  const size = input.totalSize ?? null;
  const dims = kind === "image" && input.bytes.length ? imageSize(input.bytes, type) : null;
  const media: MediaObject = {
    url: input.url,
    type,
    size,
    size_pretty: size === null ? null : prettyBytes(size),
    width: dims?.width ?? null,
    height: dims?.height ?? null,
  };
  if (kind === "audio" || kind === "video") {
    const seconds = input.bytes.length
      ? mediaDuration({ bytes: input.bytes, type, totalSize: size, tail: input.tail })
      : null;
    // Three decimals are more than any header's precision promises.
    media.duration = seconds === null ? null : Math.round(seconds * 1000) / 1000;
    media.duration_pretty = seconds === null ? null : prettyDuration(seconds);
  }
  return media;
}
