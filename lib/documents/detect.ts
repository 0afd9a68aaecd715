/**
 * Is a fetched target a document to convert, and which format: its bytes first (%PDF, {\rtf, a
 * zip whose entries name an OOXML part or whose `mimetype` entry names ODF text or EPUB), then
 * its declared Content-Type, then, only when the type is absent or generic, its URL's extension.
 */
import { mimeOf } from "../media/sniff.ts";
import { isZip, ZipArchive } from "./zip.ts";

export type DocumentFormat = "pdf" | "docx" | "xlsx" | "pptx" | "odt" | "rtf" | "epub";

const CONTENT_TYPES: Record<string, DocumentFormat> = {
  "application/pdf": "pdf",
  "application/x-pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/rtf": "rtf",
  "application/x-rtf": "rtf",
  "text/rtf": "rtf",
  "application/epub+zip": "epub",
};

const MIMETYPE_ENTRY: Record<string, DocumentFormat> = {
  "application/epub+zip": "epub",
  "application/vnd.oasis.opendocument.text": "odt",
};

/** Types that say nothing of the format: the extension may then decide. */
const GENERIC = new Set(["application/octet-stream", "binary/octet-stream", "application/zip"]);

const EXTENSIONS = new Set(["pdf", "docx", "xlsx", "pptx", "odt", "rtf", "epub"]);

export function detectDocument(
  input: { bytes: Uint8Array; contentType: string | null; url: string },
): DocumentFormat | null {
  const fromBytes = formatFromBytes(input.bytes);
  if (fromBytes !== undefined) return fromBytes;
  const mime = mimeOf(input.contentType);
  if (mime && Object.hasOwn(CONTENT_TYPES, mime)) return CONTENT_TYPES[mime]!;
  if (mime && !GENERIC.has(mime)) return null;
  const ext = /\.([a-z]{3,4})$/i.exec(URL.parse(input.url)?.pathname ?? "")?.[1]?.toLowerCase();
  return ext && EXTENSIONS.has(ext) ? ext as DocumentFormat : null;
}

/** A format, null for a zip that is no supported document, undefined when the bytes do not say. */
function formatFromBytes(bytes: Uint8Array): DocumentFormat | null | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 5));
  if (head.startsWith("%PDF")) return "pdf";
  if (head === "{\\rtf") return "rtf";
  if (!isZip(bytes)) return undefined;
  // ODF and EPUB store their type first, uncompressed, as the entry named "mimetype".
  const name = new TextDecoder("latin1").decode(bytes.subarray(30, 38));
  if (name === "mimetype") {
    const nameLength = bytes[26]! | (bytes[27]! << 8);
    const extraLength = bytes[28]! | (bytes[29]! << 8);
    const size = bytes[18]! | (bytes[19]! << 8);
    const start = 30 + nameLength + extraLength;
    const type = new TextDecoder().decode(bytes.subarray(start, start + Math.min(size, 100)))
      .trim();
    return Object.hasOwn(MIMETYPE_ENTRY, type) ? MIMETYPE_ENTRY[type]! : null;
  }
  let names: string[];
  try {
    names = new ZipArchive(bytes).names;
  } catch {
    return undefined; // a damaged zip: the declared type may still say what it was meant to be
  }
  if (names.includes("word/document.xml")) return "docx";
  if (names.includes("xl/workbook.xml")) return "xlsx";
  if (names.includes("ppt/presentation.xml")) return "pptx";
  return null;
}
