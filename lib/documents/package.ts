/**
 * A zipped document's XML parts (OOXML, ODF, EPUB): read through the bounded zip reader and
 * parsed by parseXml (no entity expanded), by path.
 */
import { DocumentRefused } from "./refused.ts";
import { type Document, parseXml } from "./xml.ts";
import { ZipArchive } from "./zip.ts";

/** The part at `path`, parsed; null when there is no path or no such (or an empty) part. */
export function xmlPart(zip: ZipArchive, path: string | null | undefined): Document | null {
  const xml = path ? zip.text(path) : null;
  return xml ? parseXml(xml) : null;
}

/**
 * Opens a zipped document at the part that makes it one (`main`); without it the document is
 * refused as corrupt, with `missing` as the reason.
 */
export function openPackage(
  bytes: Uint8Array,
  main: string,
  missing: string,
): { zip: ZipArchive; main: Document } {
  const zip = new ZipArchive(bytes);
  const part = xmlPart(zip, main);
  if (!part) throw new DocumentRefused("corrupt", missing);
  return { zip, main: part };
}
