/**
 * A document's own properties from its metadata part: OOXML's docProps/core.xml, ODF's
 * meta.xml and EPUB's OPF <metadata> all use Dublin Core names (title, creator, subject,
 * description, language, date) beside their own created/modified elements.
 */
import { type DocumentProperties, isoDate } from "./html.ts";
import type { AnyNode } from "domhandler";
import { firstText } from "./xml.ts";

export function dublinCore(doc: AnyNode): DocumentProperties {
  const modified = firstText(doc, "modified") ?? firstText(doc, "date");
  const created = firstText(doc, "created") ?? firstText(doc, "creation-date");
  return {
    title: firstText(doc, "title"),
    author: firstText(doc, "creator") ?? firstText(doc, "initial-creator"),
    date: isoDate(modified ?? created),
    description: firstText(doc, "description") ?? firstText(doc, "subject"),
    lang: firstText(doc, "language"),
  };
}
