/**
 * xlsx read from its XML parts: one table per sheet, in the workbook's order, under a heading
 * with the sheet's name. Cells show their stored value (shared or inline strings, numbers,
 * booleans, a formula's cached result), placed by their column reference.
 */
import { documentHtml, HtmlBody } from "./html.ts";
import { coreProperties, relationships } from "./ooxml.ts";
import { DOCUMENT_LIMITS, DocumentRefused } from "./refused.ts";
import {
  attr,
  childElements,
  type Element,
  findAll,
  findFirst,
  localName,
  parseXml,
  relationshipId,
  textOf,
} from "./xml.ts";
import { ZipArchive } from "./zip.ts";

export function xlsxToHtml(bytes: Uint8Array): string {
  const zip = new ZipArchive(bytes);
  const workbookXml = zip.text("xl/workbook.xml");
  if (!workbookXml) throw new DocumentRefused("corrupt", "xlsx has no workbook");
  const sheets = findAll(parseXml(workbookXml), "sheet");
  if (sheets.length > DOCUMENT_LIMITS.maxSheets) {
    throw new DocumentRefused("too-large", `xlsx has ${sheets.length} sheets`);
  }
  const targets = relationships(zip, "xl/workbook.xml");
  const strings = sharedStrings(zip);
  const body = new HtmlBody();
  let cells = 0;
  for (const sheet of sheets) {
    const path = targets.get(relationshipId(sheet) ?? "");
    const xml = path ? zip.text(path) : null;
    if (!xml) continue;
    const rows: string[][] = [];
    for (const row of findAll(parseXml(xml), "row")) {
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
  const xml = zip.text("xl/sharedStrings.xml");
  if (!xml) return [];
  // Rich runs are joined; phonetic guides (rPh) are not part of the text.
  return findAll(parseXml(xml), "si").map((si) =>
    findAll(si, "t").filter((t) => localName(t.parent as Element) !== "rPh").map(textOf).join("")
  );
}

function cellValue(cell: Element, strings: string[]): string {
  const type = attr(cell, "t");
  if (type === "inlineStr") {
    const inline = findFirst(cell, "is");
    return inline ? findAll(inline, "t").map(textOf).join("") : "";
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
