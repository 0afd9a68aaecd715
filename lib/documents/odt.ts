/**
 * odt read from content.xml (headings by outline level, paragraphs, lists, tables) and meta.xml
 * (Dublin Core and ODF's own creation date). Repeated columns and rows are written once: ODF
 * repeats empty cells by the million to fill a sheet-sized table.
 */
import { documentHtml, HtmlBody } from "./html.ts";
import { openPackage, xmlPart } from "./package.ts";
import { dublinCore } from "./properties.ts";
import { childElements, type Element, findFirst, findOutermost, localName, walk } from "./xml.ts";

export function odtToHtml(bytes: Uint8Array): string {
  const { zip, main } = openPackage(bytes, "content.xml", "odt has no content");
  const text = findFirst(main, "text");
  const meta = xmlPart(zip, "meta.xml");
  const body = new HtmlBody();
  if (text) writeBlocks(body, text);
  return documentHtml(meta ? dublinCore(meta) : {}, body);
}

function writeBlocks(body: HtmlBody, root: Element): void {
  walk(root, (element) => {
    switch (localName(element)) {
      case "h": {
        const level = Math.min(6, Math.max(1, Number(element.attribs["text:outline-level"]) || 1));
        body.block(`h${level}`, odfText(element));
        return false;
      }
      case "p":
        body.block("p", odfText(element));
        return false;
      case "list":
        // Nested lists are read into their item's text.
        body.raw("<ul>\n");
        for (const item of childElements(element)) {
          if (localName(item) !== "list-item") continue;
          body.block("li", findOutermost(item, ["p", "h"]).map(odfText).join(" "));
        }
        body.raw("</ul>\n");
        return false;
      case "table":
        body.table(
          findOutermost(element, "table-row", ["table"]).map((row) =>
            findOutermost(row, "table-cell", ["table"]).map((cell) =>
              findOutermost(cell, "p").map(odfText).join(" ")
            )
          ),
        );
        return false;
      case "tracked-changes":
      case "sequence-decls":
      case "variable-decls":
        return false;
      default:
        return true;
    }
  });
}

/** A paragraph's text with ODF's space, tab and line-break elements, notes left out. */
function odfText(paragraph: Element): string {
  let out = "";
  const stack = [...paragraph.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === "text") out += (node as unknown as { data: string }).data;
    if (!("children" in node) || !("name" in node)) continue;
    const name = localName(node as Element);
    if (name === "s" || name === "tab" || name === "line-break") out += " ";
    if (name === "note") continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}
