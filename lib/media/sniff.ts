/**
 * Media type detection: the file's own magic bytes first (servers mislabel files), then the
 * Content-Type, then the URL's extension. Types are short lowercase names (png, jpg, mp3 ...).
 */
import { ascii, indexOfAscii } from "./_bytes.ts";

export type MediaKind = "image" | "audio" | "video" | "pdf" | "other";

export interface Sniffed {
  type: string | null;
  kind: MediaKind;
}

const KINDS: Record<string, MediaKind> = {
  png: "image",
  jpg: "image",
  gif: "image",
  webp: "image",
  svg: "image",
  ico: "image",
  cur: "image",
  avif: "image",
  heic: "image",
  bmp: "image",
  tif: "image",
  jxl: "image",
  mp3: "audio",
  m4a: "audio",
  aac: "audio",
  ogg: "audio",
  opus: "audio",
  wav: "audio",
  flac: "audio",
  aif: "audio",
  mid: "audio",
  mka: "audio",
  weba: "audio",
  mp4: "video",
  m4v: "video",
  webm: "video",
  mov: "video",
  mkv: "video",
  avi: "video",
  ogv: "video",
  flv: "video",
  "3gp": "video",
  ts: "video",
  m3u8: "video",
  mpd: "video",
  pdf: "pdf",
};

const EXTENSIONS: Record<string, string> = {
  jpeg: "jpg",
  jpe: "jpg",
  jfif: "jpg",
  pjpeg: "jpg",
  tiff: "tif",
  svgz: "svg",
  oga: "ogg",
  aiff: "aif",
  midi: "mid",
  wave: "wav",
  mpeg: "mp3",
  mpga: "mp3",
  qt: "mov",
  m2ts: "ts",
};

const CONTENT_TYPES: Record<string, string> = {
  "image/png": "png",
  "image/apng": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/pjpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "image/x-icon": "ico",
  "image/vnd.microsoft.icon": "ico",
  "image/ico": "ico",
  "image/icon": "ico",
  "image/avif": "avif",
  "image/heic": "heic",
  "image/heif": "heic",
  "image/bmp": "bmp",
  "image/x-ms-bmp": "bmp",
  "image/tiff": "tif",
  "image/jxl": "jxl",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/mpeg3": "mp3",
  "audio/x-mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/m4a": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/x-aac": "aac",
  "audio/ogg": "ogg",
  "application/ogg": "ogg",
  "audio/opus": "opus",
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
  "audio/vnd.wave": "wav",
  "audio/flac": "flac",
  "audio/x-flac": "flac",
  "audio/aiff": "aif",
  "audio/x-aiff": "aif",
  "audio/midi": "mid",
  "audio/webm": "weba",
  "audio/x-matroska": "mka",
  "video/mp4": "mp4",
  "video/x-m4v": "m4v",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "video/x-matroska": "mkv",
  "video/x-msvideo": "avi",
  "video/ogg": "ogv",
  "video/x-flv": "flv",
  "video/3gpp": "3gp",
  "video/mp2t": "ts",
  "application/vnd.apple.mpegurl": "m3u8",
  "application/x-mpegurl": "m3u8",
  "audio/mpegurl": "m3u8",
  "application/dash+xml": "mpd",
  "application/pdf": "pdf",
};

export function kindOfType(type: string | null): MediaKind {
  return (type && Object.hasOwn(KINDS, type) && KINDS[type]) || "other";
}

/** The bare MIME type, lower-cased, without parameters; null when absent. */
export function mimeOf(contentType: string | null | undefined): string | null {
  const mime = contentType?.split(";")[0]?.trim().toLowerCase();
  return mime ? mime : null;
}

export function typeFromContentType(contentType: string | null | undefined): string | null {
  const mime = mimeOf(contentType);
  return mime && Object.hasOwn(CONTENT_TYPES, mime) ? CONTENT_TYPES[mime]! : null;
}

/** The type the URL's path extension names, if it names a known media type. */
export function typeFromUrl(url: string): string | null {
  const path = URL.parse(url)?.pathname;
  if (path === undefined) return null;
  const match = /\.([a-z0-9]{1,5})$/i.exec(path);
  if (!match) return null;
  const ext = match[1]!.toLowerCase();
  const type = Object.hasOwn(EXTENSIONS, ext) ? EXTENSIONS[ext]! : ext;
  return Object.hasOwn(KINDS, type) ? type : null;
}

/** ISO-BMFF (MP4, MOV, M4A, AVIF, HEIC ...) by its major brand. */
function ftypType(bytes: Uint8Array): string | null {
  const brand = ascii(bytes, 8, 4);
  if (brand === "avif" || brand === "avis") return "avif";
  if (["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].includes(brand)) {
    return "heic";
  }
  if (brand === "M4A " || brand === "M4B " || brand === "M4P ") return "m4a";
  if (brand === "M4V " || brand === "M4VH" || brand === "M4VP") return "m4v";
  if (brand === "qt  ") return "mov";
  if (brand.startsWith("3g")) return "3gp";
  return "mp4";
}

function isSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "")
    .trimStart();
  if (!head.startsWith("<")) return false;
  return /<svg[\s>]/i.test(head) && !/<html[\s>]/i.test(head);
}

/** MPEG audio frame sync with a valid version, layer, bitrate and sample rate. */
function isMpegFrame(bytes: Uint8Array, at: number): boolean {
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  return bytes[at] === 0xff && (b1 & 0xe0) === 0xe0 && ((b1 >> 3) & 3) !== 1 &&
    ((b1 >> 1) & 3) !== 0 && (b2 >> 4) !== 0xf && ((b2 >> 2) & 3) !== 3;
}

/** The type the bytes themselves show, or null when no signature matches. */
export function typeFromBytes(bytes: Uint8Array): string | null {
  const b = bytes;
  const head4 = ascii(b, 0, 4);
  if (b[0] === 0x89 && head4.slice(1) === "PNG") return "png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  if (head4 === "GIF8") return "gif";
  if (head4 === "RIFF") {
    const form = ascii(b, 8, 4);
    if (form === "WEBP") return "webp";
    if (form === "WAVE") return "wav";
    if (form === "AVI ") return "avi";
  }
  if (head4 === "FORM" && ["AIFF", "AIFC"].includes(ascii(b, 8, 4))) return "aif";
  if (ascii(b, 4, 4) === "ftyp") return ftypType(b);
  if (head4 === "%PDF") return "pdf";
  if (head4 === "fLaC") return "flac";
  if (head4 === "OggS") {
    if (indexOfAscii(b.subarray(0, 64), "OpusHead") >= 0) return "opus";
    if (indexOfAscii(b.subarray(0, 64), "theora") >= 0) return "ogv";
    return "ogg";
  }
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) {
    return indexOfAscii(b.subarray(0, 64), "webm") >= 0 ? "webm" : "mkv";
  }
  if (head4 === "MThd") return "mid";
  if (ascii(b, 0, 3) === "FLV") return "flv";
  if (head4 === "II*\0" || head4 === "MM\0*") return "tif";
  if (b[0] === 0 && b[1] === 0 && (b[2] === 1 || b[2] === 2) && b[3] === 0 && b.length > 6) {
    return b[2] === 1 ? "ico" : "cur";
  }
  if (ascii(b, 0, 2) === "BM" && b.length >= 26) return "bmp";
  if (ascii(b, 0, 3) === "ID3") return "mp3";
  if (b[0] === 0xff && ((b[1] ?? 0) & 0xf6) === 0xf0) return "aac"; // ADTS
  if (isMpegFrame(b, 0)) return "mp3";
  if (head4 === "#EXT" && ascii(b, 0, 7) === "#EXTM3U") return "m3u8";
  if (isSvg(b)) return "svg";
  return null;
}

/** Bytes first, then Content-Type, then URL extension. */
export function sniffMedia(
  input: { bytes?: Uint8Array; contentType?: string | null; url?: string },
): Sniffed {
  const type = (input.bytes && input.bytes.length ? typeFromBytes(input.bytes) : null) ??
    typeFromContentType(input.contentType) ??
    (input.url ? typeFromUrl(input.url) : null);
  return { type, kind: kindOfType(type) };
}

/** The kind alone (image, audio, video, pdf, other), same precedence as sniffMedia. */
export function kindOf(
  input: { bytes?: Uint8Array; contentType?: string | null; url?: string },
): MediaKind {
  return sniffMedia(input).kind;
}
