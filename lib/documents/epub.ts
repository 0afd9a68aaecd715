/**
 * EPUB: META-INF/container.xml names the package document; its metadata gives the properties
 * and its spine the chapters, read in spine order, each one's body rewritten into plain blocks
 * (sanitizeHtml) inside a section. Nothing a chapter links to is loaded.
 */
import { documentHtml, HtmlBody, isoDate } from "./html.ts";
import { xmlPart } from "./package.ts";
import { dublinCore } from "./properties.ts";
import { DOCUMENT_LIMITS, DocumentRefused } from "./refused.ts";
import { sanitizeHtml } from "./sanitize.ts";
import { attr, findAll, findFirst, textOf } from "./xml.ts";
import { resolveEntry, ZipArchive } from "./zip.ts";

export function epubToHtml(bytes: Uint8Array): string {
  const zip = new ZipArchive(bytes);
  const container = xmlPart(zip, "META-INF/container.xml");
  const rootfile = container ? findFirst(container, "rootfile") : null;
  const opfPath = rootfile ? attr(rootfile, "full-path") : undefined;
  const opf = xmlPart(zip, opfPath);
  if (!opfPath || !opf) throw new DocumentRefused("corrupt", "epub has no package document");
  const metadata = findFirst(opf, "metadata");
  const properties = metadata ? dublinCore(metadata) : {};
  // EPUB 3 keeps the modified date in <meta property="dcterms:modified">.
  const modified = metadata &&
    findAll(metadata, "meta").find((m) => attr(m, "property") === "dcterms:modified");
  if (modified) properties.date = isoDate(textOf(modified)) ?? properties.date;
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of findAll(opf, "item")) {
    const id = attr(item, "id");
    const href = attr(item, "href");
    if (id && href) manifest.set(id, { href, type: attr(item, "media-type") ?? "" });
  }
  const spine = findAll(opf, "itemref");
  if (spine.length > DOCUMENT_LIMITS.maxParts) {
    throw new DocumentRefused("too-large", `epub has ${spine.length} chapters`);
  }
  const body = new HtmlBody();
  for (const itemref of spine) {
    const item = manifest.get(attr(itemref, "idref") ?? "");
    if (!item || !/html/.test(item.type)) continue;
    const chapter = zip.text(resolveEntry(opfPath, item.href));
    if (!chapter) continue;
    // The chapter's <head> is dropped and its <html> and <body> unwrapped.
    body.raw(`<section>\n${sanitizeHtml(chapter, body.room)}\n</section>\n`);
  }
  return documentHtml(properties, body);
}
