/** What the OOXML formats share: the core properties part, and a part's relationship targets. */
import type { DocumentProperties } from "./html.ts";
import { dublinCore } from "./properties.ts";
import { attr, findAll, parseXml } from "./xml.ts";
import { resolveEntry, type ZipArchive } from "./zip.ts";

export function coreProperties(zip: ZipArchive): DocumentProperties {
  const core = zip.text("docProps/core.xml");
  return core ? dublinCore(parseXml(core)) : {};
}

/** Relationship id → archive path, for the part at `part` (internal targets only). */
export function relationships(zip: ZipArchive, part: string): Map<string, string> {
  const slash = part.lastIndexOf("/");
  const rels = zip.text(`${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`);
  const out = new Map<string, string>();
  if (!rels) return out;
  for (const rel of findAll(parseXml(rels), "Relationship")) {
    const id = attr(rel, "Id");
    const target = attr(rel, "Target");
    if (id && target && attr(rel, "TargetMode") !== "External") {
      out.set(id, resolveEntry(part, target));
    }
  }
  return out;
}
