/**
 * How linkpeek serves bytes it did not make (a target's file behind `embed`, a hosted capture):
 * the type comes from the bytes alone, never from what the target declared, and only a raster
 * image, audio, video or PDF is served inline. Anything else, SVG and text included, is an
 * attachment under a CSP that forbids everything, so it can never run as linkpeek's origin.
 */
import { typeFromBytes } from "../media/sniff.ts";
import type { HeaderMap } from "./respond.ts";

export const SANDBOX_CSP = "default-src 'none'; sandbox";

/**
 * For an HTML embed whose scripts are the feature (`iframe.html`): they may run and open
 * popups, but in an opaque origin (no allow-same-origin), so never as linkpeek's origin.
 */
export const SCRIPTED_SANDBOX_CSP =
  "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox";

/** Sniffed types that are served inline, with the one content type each is served as. */
const INLINE: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  heic: "image/heic",
  bmp: "image/bmp",
  ico: "image/x-icon",
  cur: "image/x-icon",
  tif: "image/tiff",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
  aif: "audio/aiff",
  mid: "audio/midi",
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  "3gp": "video/3gpp",
  webm: "video/webm",
  mkv: "video/x-matroska",
  avi: "video/x-msvideo",
  ogv: "video/ogg",
  flv: "video/x-flv",
  pdf: "application/pdf",
};

/** Content headers for `bytes`: inline media by its sniffed type, else a sandboxed download. */
export function untrustedBodyHeaders(bytes: Uint8Array): HeaderMap {
  const type = typeFromBytes(bytes);
  const inline = type === null ? undefined : INLINE[type];
  if (inline) return { "content-type": inline, "x-content-type-options": "nosniff" };
  return {
    "content-type": "application/octet-stream",
    "content-disposition": "attachment",
    "content-security-policy": SANDBOX_CSP,
    "x-content-type-options": "nosniff",
  };
}
