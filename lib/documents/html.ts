/**
 * The HTML a converted document becomes: a <head> carrying the document's own properties where
 * the default-field rules read them (title, meta author/description/date, html lang), and a body
 * of plain blocks (headings, paragraphs, lists, tables, sections), all inside <main data-document>
 * which the main-content views take whole (extractMainContent), with no attribute
 * that could make the pipeline fetch something (no images, styles or scripts; links kept for
 * http(s) and mailto).
 */
import { DOCUMENT_LIMITS, DocumentRefused } from "./refused.ts";

export interface DocumentProperties {
  title?: string;
  author?: string;
  /** The modified date, else the created one (ISO 8601 where the format gives one). */
  date?: string;
  description?: string;
  lang?: string;
}

/**
 * Body HTML written piece by piece, refused once it passes the output budgets: its characters,
 * and its nodes (past the page parser's cap, the content views would end it without a word).
 */
export class HtmlBody {
  readonly #parts: string[] = [];
  #length = 0;
  #nodes = 0;

  /** Characters the body may still grow by. */
  get room(): number {
    return DOCUMENT_LIMITS.maxHtmlChars - this.#length;
  }

  raw(html: string): this {
    if (html.length > this.room) throw overBudget();
    this.#length += html.length;
    this.#nodes += nodesIn(html);
    if (this.#nodes > DOCUMENT_LIMITS.maxHtmlNodes) {
      throw new DocumentRefused(
        "too-large",
        `the converted document passes ${DOCUMENT_LIMITS.maxHtmlNodes} nodes`,
      );
    }
    this.#parts.push(html);
    return this;
  }

  /** `<tag>text</tag>`, the text escaped; blank text writes nothing. */
  block(tag: string, text: string): this {
    const clean = normalizeSpace(text);
    return clean ? this.raw(`<${tag}>${escapeWithin(clean, this.room)}</${tag}>\n`) : this;
  }

  /** A table, its first row as header cells. */
  table(rows: string[][], caption?: string): this {
    if (!rows.length) return this;
    this.raw("<table>\n");
    if (caption) this.block("caption", caption);
    rows.forEach((row, index) => {
      const cell = index === 0 ? "th" : "td";
      // Cell by cell, each counted before the next: cells may repeat one long string (a
      // spreadsheet's shared strings), and a row of 300 copies of a 2 MB one, built whole before
      // it was counted, took its thread past its heap cap from a 3 KB file.
      this.raw("<tr>");
      for (const value of row) {
        this.raw(`<${cell}>${escapeWithin(normalizeSpace(value), this.room)}</${cell}>`);
      }
      this.raw("</tr>\n");
    });
    return this.raw("</table>\n");
  }

  toString(): string {
    return this.wrap("", "");
  }

  /** `head`, the body and `tail` joined once: a document's HTML is copied no more than that. */
  wrap(head: string, tail: string): string {
    return [head, ...this.#parts, tail].join("");
  }
}

function overBudget(): DocumentRefused {
  return new DocumentRefused("too-large", "the converted document passes its size budget");
}

/** What HTML text escapes, and a quoted attribute's value (as entities' escapers do). */
const TEXT_ESCAPED = /[&<>\u00a0]/g;
const ATTRIBUTE_ESCAPED = /["&<>\u00a0]/g;
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\u00a0": "&nbsp;",
};
const entity = (char: string) => ENTITIES[char]!;
/** Characters escaped at a time: replace() holds two entries a match until it is done. */
const ESCAPED_SLICE = 4096;

/**
 * `text` escaped as HTML text (or, with `attribute`, as a quoted attribute's value), refused once
 * it passes `room` characters. Not entities' escapers: they append to a string once per character
 * escaped, and the chain is kept until the document is joined, 33 bytes a character (8 MB of "&"
 * took 264 MB of heap, past a conversion thread's cap); replace() makes flat strings.
 */
export function escapeWithin(text: string, room: number, attribute = false): string {
  const pattern = attribute ? ATTRIBUTE_ESCAPED : TEXT_ESCAPED;
  if (text.length <= ESCAPED_SLICE) {
    const escaped = text.replace(pattern, entity);
    if (escaped.length > room) throw overBudget();
    return escaped;
  }
  pattern.lastIndex = 0;
  if (text.length <= room && !pattern.test(text)) return text;
  const slices: string[] = [];
  let length = 0;
  for (let at = 0; at < text.length; at += ESCAPED_SLICE) {
    const escaped = text.slice(at, at + ESCAPED_SLICE).replace(pattern, entity);
    length += escaped.length;
    if (length > room) throw overBudget();
    slices.push(escaped);
  }
  return slices.join("");
}

/** A converted document's body starts here (documentHtml). */
const BODY_START = "<main data-document>";

/** A whole HTML document from the properties and the body. */
export function documentHtml(properties: DocumentProperties, body: HtmlBody | string): string {
  // The properties share the body's budget.
  let room = typeof body === "string" ? DOCUMENT_LIMITS.maxHtmlChars : body.room;
  const escape = (text: string, attribute = false) => {
    const escaped = escapeWithin(text, room, attribute);
    room -= escaped.length;
    return escaped;
  };
  const metas: string[] = [];
  const meta = (name: string, value: string | undefined) => {
    const clean = value && normalizeSpace(value);
    if (clean) metas.push(`<meta name="${name}" content="${escape(clean, true)}">`);
  };
  meta("author", properties.author);
  meta("description", properties.description);
  meta("date", properties.date);
  const title = properties.title && normalizeSpace(properties.title);
  const lang = properties.lang && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(properties.lang.trim())
    ? ` lang="${properties.lang.trim()}"`
    : "";
  const head = `<!DOCTYPE html>\n<html${lang}><head><meta charset="utf-8">` +
    (title ? `<title>${escape(title)}</title>` : "") + metas.join("") +
    `</head>\n<body>\n${BODY_START}\n`;
  const tail = `</main>\n</body></html>\n`;
  return typeof body === "string" ? head + body + tail : body.wrap(head, tail);
}

/**
 * The nodes a parser makes of well-formed HTML written here (text escaped, so every "<" starts a
 * tag): one per start tag, one per run of text after a tag. Pieces are written tag first, so a run
 * never spans two of them.
 */
function nodesIn(html: string): number {
  let nodes = 0;
  for (let at = html.indexOf("<"); at >= 0; at = html.indexOf("<", at + 1)) {
    if (html[at + 1] !== "/") nodes++;
    const end = html.indexOf(">", at);
    if (end < 0) break;
    if (end + 1 < html.length && html[end + 1] !== "<") nodes++;
    at = end;
  }
  return nodes;
}

export function normalizeSpace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/** A date string as ISO 8601 when it parses, else as given; undefined when blank. */
export function isoDate(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? trimmed : new Date(time).toISOString();
}

/**
 * What the default fields read of a converted document: its <head> (the document's own
 * properties) and the start of its body (the first heading and paragraph they may fall back
 * to), never megabytes of text that no field reads.
 */
export function fieldsView(html: string, bodyChars = 16 * 1024): string {
  const body = html.indexOf(BODY_START);
  if (body < 0 || html.length - body <= bodyChars) return html;
  return html.slice(0, body + bodyChars);
}
