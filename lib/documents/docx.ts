/**
 * docx read from its XML parts: the body's paragraphs (a heading when its style is a heading,
 * the title or has an outline level), list paragraphs as list items, tables as tables, in
 * document order; the properties from docProps/core.xml. (mammoth was the first choice; it
 * assigns `__proto__`, which Deno disables, so it cannot run here without reopening that.)
 */
import { documentHtml, HtmlBody } from "./html.ts";
import { coreProperties } from "./ooxml.ts";
import { openPackage, xmlPart } from "./package.ts";
import {
  attr,
  childElements,
  type Element,
  findAll,
  findFirst,
  findOutermost,
  localName,
  textOf,
  walk,
} from "./xml.ts";
import type { ZipArchive } from "./zip.ts";

export function docxToHtml(bytes: Uint8Array): string {
  const { zip, main } = openPackage(bytes, "word/document.xml", "docx has no body");
  const levels = paragraphStyles(zip);
  const body = new HtmlBody();
  const root = findFirst(main, "body");
  if (root) writeBlocks(body, root, levels);
  return documentHtml(coreProperties(zip), body);
}

/** Heading level by style id; 0 marks a list style (its numbering is in the style). */
type Styles = Map<string, number>;

function writeBlocks(body: HtmlBody, root: Element, styles: Styles): void {
  let inList = false;
  const endList = () => {
    if (inList) body.raw("</ul>\n");
    inList = false;
  };
  walk(root, (element) => {
    const name = localName(element);
    if (name === "tbl") {
      endList();
      body.table(
        findOutermost(element, "tr", ["tbl"]).map((row) =>
          childElements(row).filter((cell) => localName(cell) === "tc").map((cell) =>
            findOutermost(cell, "p").map(paragraphText).join(" ")
          )
        ),
      );
      return false;
    }
    if (name !== "p") return name !== "sectPr";
    const properties = childElements(element).find((child) => localName(child) === "pPr");
    const style = properties && findFirst(properties, "pStyle");
    const outline = properties && findFirst(properties, "outlineLvl");
    const styled = style ? styles.get(attr(style, "val") ?? "") : undefined;
    const level = styled || (outline ? Number(attr(outline, "val")) + 1 : undefined);
    const listed = styled === 0 ||
      (properties !== undefined && findFirst(properties, "numPr") !== null);
    const text = paragraphText(element);
    if (listed && level === undefined) {
      if (!inList) body.raw("<ul>\n");
      inList = true;
      body.block("li", text);
    } else {
      endList();
      body.block(level !== undefined && level >= 1 && level <= 6 ? `h${level}` : "p", text);
    }
    return false;
  });
  endList();
}

/** Heading styles by their names ("heading 1" … "heading 6", "Title"), list styles by numPr. */
function paragraphStyles(zip: ZipArchive): Styles {
  const levels = new Map<string, number>();
  const styles = xmlPart(zip, "word/styles.xml");
  if (!styles) return levels;
  for (const style of findAll(styles, "style")) {
    const id = attr(style, "styleId");
    const nameElement = findFirst(style, "name");
    const name = ((nameElement && attr(nameElement, "val")) ?? "").toLowerCase();
    const heading = /^heading ([1-6])$/.exec(name);
    if (id && heading) levels.set(id, Number(heading[1]));
    else if (id && name === "title") levels.set(id, 1);
    else if (id && findFirst(style, "numPr")) levels.set(id, 0);
  }
  return levels;
}

/** A paragraph's runs: text, tabs and breaks as spaces; deleted text and field codes left out. */
function paragraphText(paragraph: Element): string {
  let out = "";
  walk(paragraph, (element) => {
    switch (localName(element)) {
      case "t":
        out += textOf(element);
        return false;
      case "tab":
      case "br":
      case "cr":
        out += " ";
        return false;
      case "del":
      case "instrText":
      case "pPr":
      case "rPr":
        return false;
      default:
        return true;
    }
  });
  return out;
}
