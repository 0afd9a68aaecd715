/**
 * xlsx read from its XML parts: one table per sheet, in the workbook's order, under a heading
 * with the sheet's name. Cells show their stored value (shared or inline strings, numbers,
 * booleans, a formula's cached result), placed by their column reference.
 */
import { documentHtml, HtmlBody } from "./html.ts";
import { coreProperties, listedParts } from "./ooxml.ts";
import { openPackage, xmlPart } from "./package.ts";
import { DOCUMENT_LIMITS, DocumentRefused } from "./refused.ts";
import {
  attr,
  childElements,
  type Element,
  findFirst,
  findOutermost,
  localName,
  textOf,
} from "./xml.ts";
import type { ZipArchive } from "./zip.ts";

export function xlsxToHtml(bytes: Uint8Array): string {
  const path = "xl/workbook.xml";
  const { zip, main } = openPackage(bytes, path, "xlsx has no workbook");
  const sheets = {
    element: "sheet",
    limit: DOCUMENT_LIMITS.maxSheets,
    format: "xlsx",
    noun: "sheets",
  };
  const strings = sharedStrings(zip);
  const body = new HtmlBody();
  let cells = 0;
  for (const { element: sheet, xml } of listedParts(zip, { path, xml: main }, sheets)) {
    if (!xml) continue;
    const rows: string[][] = [];
    for (const row of findOutermost(xml, "row")) {
      const values: string[] = [];
      for (const cell of childElements(row)) {
        if (localName(cell) !== "c") continue;
        const column = columnIndex(attr(cell, "r")) ?? values.length;
        cells += Math.max(1, column - values.length + 1);
        if (cells > DOCUMENT_LIMITS.maxCells) {
          throw new DocumentRefused("too-large", "xlsx has too many cells");
        }
        while (values.length < column) values.push("");
        values[column] = cellValue(cell, strings);
      }
      if (values.some((v) => v !== "")) rows.push(values);
    }
    body.block("h2", attr(sheet, "name") ?? "");
    body.table(rows);
  }
  return documentHtml(coreProperties(zip), body);
}

function sharedStrings(zip: ZipArchive): string[] {
  const table = xmlPart(zip, "xl/sharedStrings.xml");
  if (!table) return [];
  // Rich runs are joined; phonetic guides (rPh) are not part of the text.
  return findOutermost(table, "si").map((si) =>
    findOutermost(si, "t", ["rPh"]).map(textOf).join("")
  );
}

function cellValue(cell: Element, strings: string[]): string {
  const type = attr(cell, "t");
  if (type === "inlineStr") {
    const inline = findFirst(cell, "is");
    return inline ? findOutermost(inline, "t").map(textOf).join("") : "";
  }
  const v = findFirst(cell, "v");
  const raw = v ? textOf(v) : "";
  if (type === "s") return strings[Number(raw)] ?? "";
  if (type === "b") return raw === "1" ? "TRUE" : raw === "0" ? "FALSE" : raw;
  return raw;
}

/** "C7" → 2; null when the reference is absent or malformed. */
function columnIndex(reference: string | undefined): number | null {
  const letters = /^([A-Z]{1,3})\d*$/.exec(reference ?? "")?.[1];
  if (!letters) return null;
  let index = 0;
  for (const letter of letters) index = index * 26 + letter.charCodeAt(0) - 64;
  return index - 1;
}
