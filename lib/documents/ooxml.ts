/**
 * What the OOXML formats share: the core properties part, a part's relationship targets, and
 * the parts a main part lists (slides, sheets).
 */
import type { DocumentProperties } from "./html.ts";
import { dublinCore } from "./properties.ts";
import { xmlPart } from "./package.ts";
import { DocumentRefused } from "./refused.ts";
import { attr, type Document, type Element, findAll, relationshipId } from "./xml.ts";
import { resolveEntry, type ZipArchive } from "./zip.ts";

export function coreProperties(zip: ZipArchive): DocumentProperties {
  const core = xmlPart(zip, "docProps/core.xml");
  return core ? dublinCore(core) : {};
}

/** Relationship id → archive path, for the part at `part` (internal targets only). */
export function relationships(zip: ZipArchive, part: string): Map<string, string> {
  const slash = part.lastIndexOf("/");
  const rels = xmlPart(zip, `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`);
  const out = new Map<string, string>();
  if (!rels) return out;
  for (const rel of findAll(rels, "Relationship")) {
    const id = attr(rel, "Id");
    const target = attr(rel, "Target");
    if (id && target && attr(rel, "TargetMode") !== "External") {
      out.set(id, resolveEntry(part, target));
    }
  }
  return out;
}

/** A part listed by a main part: the element naming it, and its parsed XML (null if missing). */
export interface ListedPart {
  element: Element;
  path: string | undefined;
  xml: Document | null;
}

/**
 * The parts the main part (`main`, at `path`) lists with `element` elements, in its order (the
 * presentation's slides, the workbook's sheets), each parsed when its turn comes; past `limit` the
 * document is refused ("pptx has 3000 slides": its `format`, the list's `noun`).
 */
export function listedParts(
  zip: ZipArchive,
  main: { path: string; xml: Document },
  list: { element: string; limit: number; format: string; noun: string },
): Iterable<ListedPart> {
  const elements = findAll(main.xml, list.element);
  if (elements.length > list.limit) {
    throw new DocumentRefused("too-large", `${list.format} has ${elements.length} ${list.noun}`);
  }
  const targets = relationships(zip, main.path);
  // Each part is read only when its turn comes.
  return (function* () {
    for (const element of elements) {
      const path = targets.get(relationshipId(element) ?? "");
      yield { element, path, xml: xmlPart(zip, path) };
    }
  })();
}
