/**
 * Bytes of an HTML page to text, choosing the charset the way browsers do (simplified WHATWG
 * "encoding sniffing"): BOM, HTTP charset, <meta> prescan of the first 1024 bytes, then UTF-8
 * when the bytes are valid UTF-8, else a <meta> later in the <head>, else windows-1252.
 */

function bomEncoding(body: Uint8Array): { label: string; skip: number } | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { label: "utf-8", skip: 3 };
  if (body[0] === 0xfe && body[1] === 0xff) return { label: "utf-16be", skip: 2 };
  if (body[0] === 0xff && body[1] === 0xfe) return { label: "utf-16le", skip: 2 };
  return null;
}

/** A TextDecoder for a WHATWG label, or null when the label is unknown. */
function decoderFor(label: string): TextDecoder | null {
  try {
    // ignoreBOM: the BOM, if any, has been handled (and removed) already.
    return new TextDecoder(label.trim(), { ignoreBOM: true });
  } catch {
    return null;
  }
}

/** The charset parameter of a Content-Type value. */
export function charsetFromContentType(contentType: string | null): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const value = match?.[1] ?? match?.[2];
  return value ? value : null;
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = tag.replace(/^<meta/i, "").replace(/\/?>$/, "");
  for (const m of body.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!out.has(name)) out.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

/** The charset declared by <meta charset> or <meta http-equiv=content-type> near the top. */
export function charsetFromMeta(head: Uint8Array, bytes = PRESCAN_BYTES): string | null {
  // Latin-1 keeps one char per byte, so ASCII markup is found whatever the real charset is.
  const text = new TextDecoder("latin1").decode(head.subarray(0, bytes));
  const withoutComments = text.replace(/<!--[\s\S]*?(-->|$)/g, "");
  // `[^<>]`, not `[^>]`: a tag never closed stops at the next one, so the scan stays linear
  // over the head's 64 KB (HEAD_BYTES) rather than reading to the end once per `<meta`.
  for (const tag of withoutComments.matchAll(/<meta[\s/][^<>]*>/gi)) {
    const attrs = attributes(tag[0]);
    const charset = attrs.get("charset")?.trim();
    if (charset) return charset;
    if (attrs.get("http-equiv")?.trim().toLowerCase() !== "content-type") continue;
    const fromContent = /charset\s*=\s*["']?([^"'\s;]+)/i.exec(attrs.get("content") ?? "");
    if (fromContent) return fromContent[1]!;
  }
  return null;
}

/** The bytes WHATWG's prescan reads for a <meta> charset. */
const PRESCAN_BYTES = 1024;
/** The most bytes read for a <meta> charset set later in the <head>, after scripts. */
const HEAD_BYTES = 64 * 1024;

/**
 * The charset a <meta> declares anywhere in the <head> (Chromium reads on past the first 1024
 * bytes while it is still in the head; Firefox reloads the page on such a late <meta>): pages
 * that put scripts first set theirs after a few kilobytes. Read within HEAD_BYTES.
 */
function charsetFromHead(body: Uint8Array): string | null {
  const window = body.subarray(0, HEAD_BYTES);
  return charsetFromMeta(window, headEnd(window));
}

/** Where the <head> ends in `bytes`: at `</head` or `<body`, else at the end of `bytes`. */
function headEnd(bytes: Uint8Array): number {
  const text = new TextDecoder("latin1").decode(bytes);
  const at = text.search(/<\/head[\s>]|<body[\s>]/i);
  return at < 0 ? bytes.length : at;
}

/** Valid UTF-8, allowing a sequence cut short at the end (bodies are capped mid-stream). */
function isUtf8(body: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(body, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Single-byte legacy charsets (windows-125x, iso-8859-x, koi8 ...). Text in them is almost
 * never valid UTF-8 with multi-byte sequences, while pages re-saved as UTF-8 often keep their
 * old <meta charset>: for those, the bytes win over the <meta> (never over the HTTP header).
 */
function isSingleByte(encoding: string): boolean {
  return /^(windows-125\d|iso-8859-\d+|koi8-[ru]|ibm866|macintosh|x-mac-cyrillic)$/.test(encoding);
}

function hasUtf8Sequences(body: Uint8Array): boolean {
  return body.some((byte) => byte >= 0x80) && isUtf8(body);
}

/** C0 controls other than tab, line feed and carriage return. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x0c\x0e-\x1f]/;
// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x08\x0b\x0e-\x1f]+/g;

/**
 * Page text without C0 control characters (tab, line feed and carriage return stay; a form feed,
 * which HTML reads as a space, becomes one). They are never content, and a page of NULs must
 * not reach the steps after decoding as millions of characters (markdown used NUL as a marker).
 */
export function stripControls(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replaceAll("\f", " ").replace(CONTROLS, "");
}

/** A page's bytes as text in the charset the page is in, control characters removed. */
export function decodeHtml(body: Uint8Array, contentType: string | null): string {
  const text = decodeBody(body, contentType);
  return mayHoldControls(body) ? stripControls(text) : text;
}

/**
 * Whether text decoded from `bytes` can hold a C0 control other than tab, line feed and
 * carriage return. In every charset but UTF-16 and ISO-2022-JP such a character is its own byte
 * (multi-byte sequences use bytes from 0x40 up), and those two are full of such bytes: bytes
 * without one decode to text without one. Read four bytes at a time, twice as fast as the
 * regular expression over the text (stripControls), which then runs only when this says so.
 */
function mayHoldControls(bytes: Uint8Array): boolean {
  const head = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  for (let i = 0; i < head; i++) if (isControlByte(bytes[i]!)) return true;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + head, (bytes.length - head) >> 2);
  for (let w = 0; w < words.length; w++) {
    const word = words[w]!;
    // Non-zero when a byte of the word is under 0x20: then its four bytes are looked at.
    if (((word - 0x20202020) & ~word & 0x80808080) === 0) continue;
    const at = head + w * 4;
    if (
      isControlByte(bytes[at]!) || isControlByte(bytes[at + 1]!) ||
      isControlByte(bytes[at + 2]!) || isControlByte(bytes[at + 3]!)
    ) return true;
  }
  for (let i = head + words.length * 4; i < bytes.length; i++) {
    if (isControlByte(bytes[i]!)) return true;
  }
  return false;
}

function isControlByte(byte: number): boolean {
  return byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d;
}

function decodeBody(body: Uint8Array, contentType: string | null): string {
  const bom = bomEncoding(body);
  if (bom) return decoderFor(bom.label)!.decode(body.subarray(bom.skip));
  const fromHeader = decoderFor(charsetFromContentType(contentType) ?? "");
  if (fromHeader) return fromHeader.decode(body);
  let fromMeta = decoderFor(charsetFromMeta(body) ?? "");
  // WHATWG: a <meta> readable as ASCII cannot mean UTF-16; x-user-defined means windows-1252.
  if (fromMeta?.encoding.startsWith("utf-16")) fromMeta = decoderFor("utf-8");
  if (fromMeta?.encoding === "x-user-defined") fromMeta = decoderFor("windows-1252");
  if (fromMeta && !(isSingleByte(fromMeta.encoding) && hasUtf8Sequences(body))) {
    return fromMeta.decode(body);
  }
  if (isUtf8(body)) return decoderFor("utf-8")!.decode(body);
  // Bytes that are not UTF-8 are read in the charset the <head> declares late, if any.
  const late = decoderFor(charsetFromHead(body) ?? "");
  const legacy = late && !late.encoding.startsWith("utf-") && late.encoding !== "x-user-defined";
  return (legacy ? late : decoderFor("windows-1252"))!.decode(body);
}
