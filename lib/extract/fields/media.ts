/** What the media rules share: extension and content-type checks. */
import { extensionOf } from "./resolve.ts";

export const VIDEO_EXT = new Set(
  ("3g2 3gp avi flv m2v m3u8 m4v mkv mov mp4 mpe mpeg mpg mpv ogv qt webm wmv").split(" "),
);
export const AUDIO_EXT = new Set(
  ("aac aif aiff flac m4a mp3 mpa mpga oga ogg opus wav weba wma").split(" "),
);

export const isVideoUrl = (url: string) => VIDEO_EXT.has(extensionOf(url));
export const isAudioUrl = (url: string) => AUDIO_EXT.has(extensionOf(url));

/** A MIME type of the kind ("video/mp4" for video, "audio/mpeg" for audio). */
export function typeIs(type: string | undefined, kind: "audio" | "video"): boolean {
  const t = (type ?? "").toLowerCase().split(";")[0]!.trim();
  if (t === "") return false;
  if (kind === "video") return t.startsWith("video/") || t === "application/x-mpegurl";
  return t.startsWith("audio/");
}
