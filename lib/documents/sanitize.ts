/**
 * HTML from a converter (mammoth) or a document (EPUB chapters) rewritten into plain blocks: the
 * structural elements kept without attributes, links kept only to http(s) and mailto, anything
 * that would load or run something (images, media, frames, scripts, styles, forms) dropped with
 * its content, any other element unwrapped. The pipeline then has nothing of the document's to
 * fetch.
 */
import { type AnyNode, isTag, isText } from "domhandler";
import { spend } from "../extract/dom/budget.ts";
import { parseBounded } from "./bounded_parse.ts";
import { escapeWithin } from "./html.ts";

const KEPT = new Set([
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "p",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "td",
  "th",
  "caption",
  "blockquote",
  "pre",
  "code",
  "em",
  "strong",
  "b",
  "i",
  "u",
  "s",
  "sub",
  "sup",
  "br",
  "hr",
  "section",
  "article",
  "aside",
  "figure",
  "figcaption",
]);

const DROPPED = new Set([
  "head",
  "title",
  "script",
  "style",
  "link",
  "meta",
  "img",
  "picture",
  "svg",
  "math",
  "video",
  "audio",
  "source",
  "track",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "canvas",
  "form",
  "input",
  "button",
  "select",
  "textarea",
  "template",
  "noscript",
  "base",
  "image",
]);

const VOID = new Set(["br", "hr"]);

type Step = AnyNode | { close: string };

/**
 * The kept blocks of `html`, as HTML; refused as the document's output budget is once they pass
 * `room` characters (a chapter may escape to five times its size).
 */
export function sanitizeHtml(html: string, room: number): string {
  // As parseHtml parses a page, but whole or refused (a chapter is not read in part).
  const doc = parseBounded(html, { lowerCaseAttributeNames: true, lowerCaseTags: true });
  const out: string[] = [];
  let length = 0;
  const write = (piece: string) => {
    length += piece.length;
    out.push(piece);
  };
  const stack: Step[] = [...doc.children].reverse();
  while (stack.length) {
    spend();
    const step = stack.pop()!;
    if ("close" in step) {
      write(step.close);
      continue;
    }
    if (isText(step)) {
      write(escapeWithin(step.data, room - length));
      continue;
    }
    if (!isTag(step)) continue;
    const name = step.name.includes(":") ? step.name.split(":").pop()! : step.name;
    if (DROPPED.has(name)) continue;
    let open = "";
    let close = "";
    if (KEPT.has(name)) {
      open = `<${name}>`;
      close = VOID.has(name) ? "" : `</${name}>`;
    } else if (name === "a") {
      const href = step.attribs.href ?? "";
      if (/^(https?:|mailto:)/i.test(href.trim())) {
        open = `<a href="${escapeWithin(href.trim(), room - length, true)}">`;
        close = "</a>";
      }
    }
    if (open) write(open);
    if (close) stack.push({ close });
    for (let i = step.children.length - 1; i >= 0; i--) stack.push(step.children[i]!);
  }
  return out.join("");
}
