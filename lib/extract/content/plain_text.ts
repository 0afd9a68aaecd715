/**
 * The plain-text view of a node: its visible text with a line break at each block element,
 * spaces collapsed within a line, blank lines dropped. The twin of the Markdown view for
 * readers that want words only (search indexing, language models counting tokens).
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { BLOCK_TAGS, rawText } from "../dom/mod.ts";
import { spend } from "../dom/budget.ts";
import { ATTACHED, startsNewWord } from "./seams.ts";

/** Where a line ends besides blocks: explicit breaks and list options. */
const LINE_BREAKS = new Set([...BLOCK_TAGS, "br", "option", "dialog"]);
/** Never read as text. */
const SILENT = new Set(["script", "style", "noscript", "template", "head", "svg", "math"]);
/** Marks the ends of preformatted text (decoding removed every control character). */
const PRE = "\u0001";
const NEWLINE = { type: "text", data: "\n" } as unknown as AnyNode;
/** Marks where two sibling elements meet with no text between them (see spacedSeams). */
const SEAM = "\u0002";
const SEAM_NODE = { type: "text", data: SEAM } as unknown as AnyNode;

/** `node`'s text, one line per block, read without recursion. */
export function renderPlainText(node: AnyNode): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length) {
    spend();
    const current = stack.pop()!;
    if (current === NEWLINE) {
      parts.push("\n");
    } else if (current === SEAM_NODE) {
      parts.push(SEAM);
    } else if (isText(current)) {
      parts.push(current.data.replace(/\n/g, " "));
    } else if (isTag(current)) {
      if (SILENT.has(current.name) || isNoteReference(current)) continue;
      // Preformatted text keeps its own line breaks.
      if (current.name === "pre") {
        parts.push("\n", PRE + preformatted(rawText(current)) + PRE, "\n");
        continue;
      }
      const breaks = LINE_BREAKS.has(current.name);
      if (breaks) parts.push("\n");
      if (breaks) stack.push(NEWLINE);
      pushChildren(current.children, stack);
    } else if ("children" in current) {
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
    }
  }
  // Whitespace is tidied outside <pre> only: odd pieces of the split are preformatted.
  return parts.join("").split(PRE).map((piece, i) =>
    i % 2 ? piece : spacedSeams(piece).replace(/[ \t\r\f\v\u00a0\u200b]+/g, " ")
      .replace(/ *\n[\n ]*/g, "\n")
  ).join("").replace(/^\n+/, "").trimEnd().replace(/^ +/, "");
}

/**
 * A <pre>'s text without its first line break (HTML drops it) and trailing whitespace; by
 * trimEnd(), as /\s+$/ tries every space of a long run and reads on to the run's end.
 */
function preformatted(text: string): string {
  return (text.startsWith("\n") ? text.slice(1) : text).trimEnd();
}

/**
 * Pushes `children` for reading in order, with a seam between two elements that meet with no
 * text between them (comments aside).
 */
function pushChildren(children: AnyNode[], stack: AnyNode[]): void {
  let after: Element | null = null;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i]!;
    if (isTag(child)) {
      if (after && !ATTACHED.has(after.name) && !ATTACHED.has(child.name)) stack.push(SEAM_NODE);
      after = child;
    } else if (isText(child)) after = null;
    stack.push(child);
  }
}

/** A seam, with the characters either side of it. */
const SEAMS = new RegExp(`(?<=(.))${SEAM}+(?=(.))`, "gsu");

/** Each seam a space where a new word starts there (see startsNewWord), else nothing. */
function spacedSeams(piece: string): string {
  if (!piece.includes(SEAM)) return piece;
  return piece.replace(SEAMS, (_, before, after) => startsNewWord(before, after) ? " " : "")
    .replaceAll(SEAM, "");
}

/** A fragment naming a note: `#fn1`, `#footnote-10-…`, `#cite_note-3`, `#endnote2`. */
const NOTE_FRAGMENT = /#(?:fn|footnote|endnote|cite[_-]note|note)[\w:.-]*$/i;
const NOTE_MARK = /^\s*\[?\d{1,3}\]?\s*$/;

/**
 * A reference to a footnote in running text (a link to the note whose text is its number): a
 * reader of plain text has no note to follow, and the number would break the sentence
 * ("the structure.10 The tool"). The Markdown view writes it as `[^n]` instead.
 */
function isNoteReference(el: Element): boolean {
  if (el.name !== "a" || el.children.length !== 1) return false;
  const href = el.attribs.href;
  const only = el.children[0]!;
  return href !== undefined && NOTE_FRAGMENT.test(href) && isText(only) &&
    NOTE_MARK.test(only.data);
}
