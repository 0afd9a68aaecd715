/** A media object of what a URL alone tells: its type from the extension, nothing measured. */
import type { MediaField, MediaObject } from "../util/payload_types.ts";
import { typeFromUrl } from "./sniff.ts";

export function unverifiedMedia(field: MediaField, url: string): MediaObject {
  const media: MediaObject = {
    url,
    type: typeFromUrl(url),
    size: null,
    size_pretty: null,
    width: null,
    height: null,
  };
  if (field === "audio" || field === "video") {
    media.duration = null;
    media.duration_pretty = null;
  }
  return media;
}
