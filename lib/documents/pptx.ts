/**
 * pptx read from its XML parts: one section per slide in the presentation's order, each
 * paragraph of its shapes a paragraph (the title placeholder a heading), tables as tables, then
 * the speaker notes.
 */
import { documentHtml, HtmlBody } from "./html.ts";
import { coreProperties, listedParts, relationships } from "./ooxml.ts";
import { openPackage, xmlPart } from "./package.ts";
import { DOCUMENT_LIMITS } from "./refused.ts";
import {
  attr,
  type Document,
  type Element,
  findFirst,
  findOutermost,
  localName,
  textOf,
  walk,
} from "./xml.ts";

export function pptxToHtml(bytes: Uint8Array): string {
  const path = "ppt/presentation.xml";
  const { zip, main } = openPackage(bytes, path, "pptx has no presentation part");
  const slides = {
    element: "sldId",
    limit: DOCUMENT_LIMITS.maxParts,
    format: "pptx",
    noun: "slides",
  };
  const body = new HtmlBody();
  for (const slide of listedParts(zip, { path, xml: main }, slides)) {
    if (!slide.path || !slide.xml) continue;
    body.raw("<section>\n");
    writeShapes(body, slide.xml);
    const notes = [...relationships(zip, slide.path).values()].find((p) =>
      /notesSlide\d*\.xml$/.test(p)
    );
    const notesXml = xmlPart(zip, notes);
    if (notesXml) {
      const paragraphs = findOutermost(notesXml, "p").map(paragraphText).filter(Boolean);
      if (paragraphs.length) {
        body.raw("<div>\n");
        // The notes slide repeats the slide number in a placeholder: only its body is notes.
        for (const text of paragraphs) if (!/^\d+$/.test(text.trim())) body.block("p", text);
        body.raw("</div>\n");
      }
    }
    body.raw("</section>\n");
  }
  return documentHtml(coreProperties(zip), body);
}

/**
 * Shapes and tables in document order. A title placeholder's text is the slide's heading; a
 * slide without one (text boxes only, as some producers write) has its first paragraph promoted.
 */
function writeShapes(body: HtmlBody, slide: Document): void {
  const blocks: Array<{ tag: string; text: string } | { rows: string[][] }> = [];
  walk(slide, (element) => {
    const name = localName(element);
    if (name === "sp") {
      const placeholder = findFirst(element, "ph");
      const type = placeholder ? attr(placeholder, "type") : undefined;
      const tag = type === "title" || type === "ctrTitle" ? "h2" : "p";
      for (const paragraph of findOutermost(element, "p")) {
        const text = paragraphText(paragraph);
        if (text.trim()) blocks.push({ tag, text });
      }
      return false;
    }
    if (name === "tbl") {
      const rows = findOutermost(element, "tr", ["tbl"]).map((tr) =>
        findOutermost(tr, "tc", ["tbl"]).map((tc) =>
          findOutermost(tc, "p").map(paragraphText).join(" ")
        )
      );
      blocks.push({ rows });
      return false;
    }
    return true;
  });
  const first = blocks[0];
  if (first && "tag" in first && !blocks.some((b) => "tag" in b && b.tag === "h2")) {
    first.tag = "h2";
  }
  for (const block of blocks) {
    if ("rows" in block) body.table(block.rows);
    else body.block(block.tag, block.text);
  }
}

/** A DrawingML paragraph's runs joined; line breaks become spaces. */
function paragraphText(paragraph: Element): string {
  let text = "";
  walk(paragraph, (element) => {
    const name = localName(element);
    if (name === "t") text += textOf(element);
    else if (name === "br") text += " ";
    return name !== "t";
  });
  return text;
}
