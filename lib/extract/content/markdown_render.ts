/**
 * DOM -> CommonMark (plus GFM tables, strikethrough and footnotes). Blocks are rendered to
 * strings and joined by blank lines; inline content is escaped, then its whitespace collapsed.
 * Nesting deeper than MAX_DEPTH is read as plain text, so no page can exhaust the stack.
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { attr, BLOCK_TAGS, collapse, rawText, textOf } from "../dom/mod.ts";
import { spend } from "../dom/budget.ts";
import { codeBlock, longestRun } from "./markdown_code.ts";
import { Footnotes, isBacklink } from "./markdown_footnotes.ts";
import { imageView } from "./markdown_image.ts";
import { linkTarget, pointsAtItself } from "./markdown_links.ts";
import { tableBlocks } from "./markdown_table.ts";
import { isCollapsedPanel } from "./visibility.ts";
import { ATTACHED, startsNewWord } from "./seams.ts";
import { isTaskBox } from "./stats.ts";

export interface RenderOptions {
  /** Base for relative links and images. */
  baseUrl: string;
  /** Drop page chrome (nav, aside, footer, forms, share/comment boxes): main-content mode. */
  clean?: boolean;
}

interface Ctx {
  base: string;
  clean: boolean;
  sawH1: boolean;
  /** The level of the first heading written, 0 before one is. */
  firstHeading: number;
  /** That heading's text, collapsed. */
  firstHeadingText: string;
  depth: number;
  notes: Footnotes;
  /** Inside a note being written as a definition: its back-links go. */
  inNote: boolean;
  /** Emphasis markers open around the text being written ("**", "*", "~~"). */
  marks: Set<string>;
}

/** Deeper than this (unclosed tags on broken pages) the rest is read as plain text. */
const MAX_DEPTH = 400;
/** A <br> inside inline text until tidy() makes it a hard break; text never holds one. */
const BR = "\u0000";

const ALWAYS_DROP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "title",
  "meta",
  "link",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "input",
  "button",
  "select",
  "textarea",
  "option",
  "map",
  "audio",
  "video",
  "dialog",
]);
const CLEAN_DROP = new Set(["nav", "aside", "footer", "form", "fieldset", "menu"]);
const DROP_ROLES = new Set([
  "navigation",
  "complementary",
  "contentinfo",
  "search",
  "dialog",
  "banner",
  "menu",
]);
const NOISE =
  /(?:^|[\s_-])(?:comments?|share|sharing|social|related|sidebar|advert\w*|ads?|promo\w*|newsletter|subscribe|cookies?|consent|breadcrumbs?|popup|modal|sr-only|visually-hidden|screen-reader-text|skip-link)(?:$|[\s_-])/i;
const MAYBE_CONTENT = /article|body|content|main|post|entry|story/i;

/**
 * Renders `node`'s content; returns the Markdown, whether it held an h1, and the level (0 when
 * none) and text of its first heading.
 */
export function renderMarkdown(
  node: AnyNode,
  options: RenderOptions,
): { markdown: string; hasH1: boolean; firstHeading: number; firstHeadingText: string } {
  const clean = options.clean ?? false;
  const ctx: Ctx = {
    base: options.baseUrl,
    clean,
    sawH1: false,
    firstHeading: 0,
    firstHeadingText: "",
    depth: 0,
    notes: new Footnotes(node, (el) => skip(el, { clean })),
    inNote: false,
    marks: new Set(),
  };
  const nodes = isTag(node) && !skip(node, ctx) ? [node] : "children" in node ? node.children : [];
  const markdown = blocks(nodes, ctx).join("\n\n");
  const { sawH1: hasH1, firstHeading, firstHeadingText } = ctx;
  return { markdown, hasH1, firstHeading, firstHeadingText };
}

/** True when the element is not content: scripts, hidden parts and, when clean, page chrome. */
export function skip(el: Element, ctx: { clean: boolean }): boolean {
  if (ALWAYS_DROP.has(el.name)) return true;
  const a = el.attribs;
  if (hiddenByAttributes(a) && !isCollapsedPanel(el)) return true;
  if (!ctx.clean) return false;
  if (CLEAN_DROP.has(el.name)) return true;
  if (a.role && DROP_ROLES.has(a.role.toLowerCase())) return true;
  if (el.name === "header" && !HAS_HEADING.has(el)) return true;
  const names = `${a.class ?? ""} ${a.id ?? ""}`;
  return NOISE.test(names) && !MAYBE_CONTENT.test(names) && el.name !== "body";
}

/**
 * `hidden`, `aria-hidden="true"` or an inline style hiding it, read in one pass over the
 * attributes: most elements have none or one, and a read by name of an attribute map (of
 * another shape on nearly every element) costs more than a pass over its keys.
 */
function hiddenByAttributes(a: Record<string, string>): boolean {
  for (const name in a) {
    switch (name) {
      case "hidden":
        return true;
      case "aria-hidden":
        if (a[name] === "true") return true;
        break;
      case "style":
        if (HIDING_STYLE.test(a[name]!)) return true;
    }
  }
  return false;
}

const HIDING_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/**
 * "Some element below `el` passes `test`", remembered per element: asked of every nested
 * <span> or <header>, an unremembered walk of each subtree would make nesting quadratic.
 */
class SubtreeHas {
  readonly #known = new WeakMap<Element, boolean>();
  constructor(
    readonly test: (el: Element) => boolean,
    /** Elements neither counted nor looked into. */
    readonly ignore: (el: Element) => boolean = () => false,
  ) {}

  has(root: Element): boolean {
    const known = this.#known.get(root);
    if (known !== undefined) return known;
    // Post-order with an explicit stack: children are settled before their parent.
    const stack: [Element, boolean][] = [[root, false]];
    while (stack.length) {
      const [el, childrenDone] = stack.pop()!;
      if (this.#known.has(el)) continue;
      spend();
      if (!childrenDone) {
        stack.push([el, true]);
        for (const child of el.children) {
          if (isTag(child) && !this.ignore(child)) stack.push([child, false]);
        }
        continue;
      }
      this.#known.set(
        el,
        el.children.some((c) =>
          isTag(c) && !this.ignore(c) && (this.test(c) || this.#known.get(c) === true)
        ),
      );
    }
    return this.#known.get(root)!;
  }
}

const HAS_HEADING = new SubtreeHas((el) => /^h[1-3]$/.test(el.name));
/** An inline element wrapping blocks (a <span> or custom element around paragraphs). */
const HAS_BLOCK = new SubtreeHas((el) => BLOCK_TAGS.has(el.name), (el) => ALWAYS_DROP.has(el.name));

function blocks(nodes: AnyNode[], ctx: Ctx): string[] {
  const out: string[] = [];
  let inline: string[] = [];
  const flush = () => {
    const text = tidy(inline.join(""));
    if (text) out.push(text);
    inline = [];
  };
  let after: Element | null = null;
  // Line breaks in a row with only spaces between: `<br><br>` sets paragraphs apart.
  let breaks = 0;
  for (const node of nodes) {
    spend();
    if (isText(node)) {
      addInline(inline, escapeText(node.data));
      after = null;
      if (/\S/.test(node.data)) breaks = 0;
      continue;
    }
    if (!isTag(node) || skip(node, ctx)) continue;
    if (node.name === "br" && ++breaks === 2) flush();
    if (node.name !== "br") breaks = 0;
    const rendered = block(node, ctx);
    if (rendered === null) {
      addSeamed(inline, inlineNode(node, ctx), after, node);
      after = node;
    } else {
      after = null;
      flush();
      for (const b of rendered) if (b) out.push(b);
    }
  }
  flush();
  return out;
}

function children(el: Element, ctx: Ctx): string[] {
  return deeper(el, ctx, () => blocks(el.children, ctx));
}

/** `render` one level down; past MAX_DEPTH the element's text as one paragraph instead. */
function deeper(el: Element, ctx: Ctx, render: () => string[]): string[] {
  if (ctx.depth > MAX_DEPTH) return [tidy(escapeText(rawText(el)))];
  ctx.depth++;
  try {
    return render();
  } finally {
    ctx.depth--;
  }
}

const HEADING_LEVEL = new Map([1, 2, 3, 4, 5, 6].map((level) => [`h${level}`, level]));

/** A block element's Markdown blocks, or null when `el` is inline. */
function block(el: Element, ctx: Ctx): string[] | null {
  const tag = el.name;
  const level = HEADING_LEVEL.get(tag);
  if (level !== undefined) {
    const text = headingLine(tidy(inlineChildren(el, ctx), false));
    if (!text) return [];
    if (level === 1) ctx.sawH1 = true;
    if (!ctx.firstHeading) [ctx.firstHeading, ctx.firstHeadingText] = [level, textOf(el)];
    return [`${"#".repeat(level)} ${text}`];
  }
  switch (tag) {
    case "p":
    case "figcaption":
    case "summary":
    case "caption":
    case "dd":
      // Flow content may hold blocks (a definition's code and notes in Sphinx's API docs).
      return HAS_BLOCK.has(el) ? children(el, ctx) : [inline(el, ctx)];
    case "dt":
      // A term is bold; bold inside it adds no markers of its own.
      return [marked(ctx, "**", () => inline(el, ctx))];
    case "hr":
      return ["---"];
    case "ul":
    case "ol":
      return ctx.notes.isNoteList(el) ? notes(el, ctx) : deeper(el, ctx, () => [list(el, ctx)]);
    case "blockquote":
      return [quote(children(el, ctx))];
    case "pre":
      return [codeBlock(el)];
    case "table":
      return deeper(el, ctx, () =>
        tableBlocks(el, {
          cellText: (cell) => inline(cell, ctx).replace(/\\\n/g, " "),
          blocks: (table) => blocks(table.children, ctx),
          caption: (caption) => inline(caption, ctx),
        }));
    case "figure":
      return figure(el, ctx);
  }
  if (BLOCK_TAGS.has(tag) || HAS_BLOCK.has(el)) return children(el, ctx);
  return null;
}

/** Plain text as the inline content of a heading (the page title line). */
export function headingText(text: string): string {
  return headingLine(tidy(escapeText(text), false));
}

/** Inline Markdown on one line; a closing run of `#` would end the heading early. */
function headingLine(markdown: string): string {
  return markdown.replace(/\\\n/g, " ").replace(/(^|\s)(#+)$/, "$1\\$2");
}

function list(el: Element, ctx: Ctx): string {
  const ordered = el.name === "ol";
  let n = listStart(attr(el, "start"));
  const items: string[] = [];
  for (const child of el.children) {
    spend();
    if (!isTag(child) || skip(child, ctx)) continue;
    if (child.name === "ul" || child.name === "ol") {
      // A list directly inside a list (invalid, common): it belongs to the previous item.
      const nested = indent(deeper(child, ctx, () => [list(child, ctx)])[0]!, "  ");
      if (items.length) items[items.length - 1] += "\n" + nested;
      continue;
    }
    const parts = child.name === "li" ? children(child, ctx) : blocks([child], ctx);
    if (!parts.length) continue;
    // Renderers number on from the first item: a number past nine digits would end the list.
    const marker = ordered ? `${Math.min(n++, MAX_ITEM_NUMBER)}. ` : "- ";
    const tight = parts.length === 1 || (parts.length === 2 && isList(parts[1]!));
    const body = taskBox(child) + parts.join(tight ? "\n" : "\n\n");
    items.push(marker + indent(body, " ".repeat(marker.length)).slice(marker.length));
  }
  return items.join("\n");
}

/**
 * A task list item's box in GFM's words ("[x] ", "[ ] "): the item's first element is a
 * disabled checkbox (GitHub's and most renderers' task lists). Else "".
 */
function taskBox(item: Element): string {
  const first = item.children.find(isTag);
  if (!first || first.name !== "input" || !isTaskBox(first)) return "";
  return first.attribs.checked !== undefined ? "[x] " : "[ ] ";
}

/** Highest item number CommonMark reads as a list marker (1-9 digits). */
const MAX_ITEM_NUMBER = 999_999_999;

/**
 * An ordered list's first number: `start` when Markdown can write it, else 1 (a negative
 * start, or one past nine digits, makes no list in CommonMark).
 */
function listStart(start: string | null): number {
  const n = Number.parseInt(start ?? "1", 10);
  return n >= 0 && n <= MAX_ITEM_NUMBER ? n : 1;
}

function isList(text: string): boolean {
  return /^(?:- |\d+\. )/.test(text);
}

function indent(text: string, pad: string): string {
  return text.split("\n").map((line) => (line ? pad + line : line)).join("\n");
}

function quote(parts: string[]): string {
  if (!parts.length) return "";
  return parts.join("\n\n").split("\n").map((l) => (l ? `> ${l}` : ">")).join("\n");
}

/** A note list as GFM footnote definitions, `[^n]: text`, back-links dropped. */
function notes(el: Element, ctx: Ctx): string[] {
  const out: string[] = [];
  const wasInNote = ctx.inNote;
  ctx.inNote = true;
  try {
    for (const item of el.children) {
      spend();
      if (!isTag(item) || skip(item, ctx)) continue;
      const label = ctx.notes.label(item);
      // Only the items are notes (a stray element in the list is no definition).
      const parts = label === null ? [] : children(item, ctx);
      if (!parts.length) continue;
      const body = indent(parts.join("\n\n"), "    ").slice(4);
      out.push(`[^${label}]: ${body}`);
    }
  } finally {
    ctx.inNote = wasInNote;
  }
  return [out.join("\n")];
}

/**
 * A figure: its content, then its caption. A caption whose figure lost its content (a
 * tracking pixel, an icon, an embed) goes with it.
 */
function figure(el: Element, ctx: Ctx): string[] {
  const content: AnyNode[] = [];
  const captions: Element[] = [];
  for (const child of el.children) {
    if (isTag(child) && child.name === "figcaption") captions.push(child);
    else content.push(child);
  }
  const parts = deeper(el, ctx, () => blocks(content, ctx));
  if (!parts.length) return [];
  return [...parts, ...captions.map((caption) => inline(caption, ctx))];
}

function inline(el: Element, ctx: Ctx): string {
  return tidy(inlineChildren(el, ctx));
}

function inlineChildren(el: Element, ctx: Ctx): string {
  if (ctx.depth > MAX_DEPTH) return escapeText(rawText(el));
  ctx.depth++;
  try {
    const parts: string[] = [];
    let after: Element | null = null;
    for (const child of el.children) {
      spend();
      if (!isTag(child)) {
        if (isText(child)) after = null;
        addInline(parts, inlineNode(child, ctx));
        continue;
      }
      addSeamed(parts, inlineNode(child, ctx), after, child);
      after = child;
    }
    return parts.join("");
  } finally {
    ctx.depth--;
  }
}

function inlineNode(node: AnyNode, ctx: Ctx): string {
  if (isText(node)) return escapeText(node.data);
  if (!isTag(node) || skip(node, ctx)) return "";
  switch (node.name) {
    case "br":
      return BR;
    case "strong":
    case "b":
      return emphasis(node, ctx, "**");
    case "em":
    case "i":
    case "cite":
    case "dfn":
      return emphasis(node, ctx, "*");
    case "del":
    case "s":
    case "strike":
      return emphasis(node, ctx, "~~");
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      return codeSpan(rawText(node));
    case "a":
      return link(node, ctx);
    case "img":
      return image(node, ctx);
    case "q":
      return `"${inlineChildren(node, ctx)}"`;
  }
  const content = inlineChildren(node, ctx);
  // A block inside inline content (a <div> in a link) still separates words.
  return BLOCK_TAGS.has(node.name) ? ` ${content} ` : content;
}

/**
 * Emphasis inside emphasis of its own kind (`<b>a <strong>b</strong></b>`) adds no markers:
 * nested, they would meet as `****`, which CommonMark shows as asterisks.
 */
function emphasis(node: Element, ctx: Ctx, marker: string): string {
  return marked(ctx, marker, () => inlineChildren(node, ctx));
}

/** What `write` writes, inside `marker` unless that emphasis is open around it already. */
function marked(ctx: Ctx, marker: string, write: () => string): string {
  if (ctx.marks.has(marker)) return write();
  ctx.marks.add(marker);
  try {
    return wrap(write(), marker);
  } finally {
    ctx.marks.delete(marker);
  }
}

/** Emphasis markers, longest first. */
const MARKERS = ["**", "~~", "*"];

/**
 * Adds a child's Markdown to its parent's `parts`. Two runs of the same emphasis side by side
 * (`<b>S</b><b>unshine</b>`) are written as one: apart, their markers would meet as `****`,
 * which CommonMark shows as asterisks. Only the last part (one child's) is ever cut: linear.
 */
/**
 * addInline for the piece `el` renders, after the sibling element `after` it meets with no text
 * between them: a space first where the two set side by side start a new word (startsNewWord).
 */
function addSeamed(parts: string[], piece: string, after: Element | null, el: Element): void {
  const seam = after !== null && piece !== "" && parts.length > 0 && !ATTACHED.has(el.name) &&
    !ATTACHED.has(after.name);
  if (seam && startsNewWord(parts[parts.length - 1]!.slice(-1), piece.charAt(0))) parts.push(" ");
  addInline(parts, piece);
}

function addInline(parts: string[], piece: string): void {
  if (!piece) return;
  const first = piece.charCodeAt(0);
  // "*" or "~" (most pieces start with neither) after a part that may end with a marker.
  if ((first === 0x2a || first === 0x7e) && parts.length > 0) {
    const last = parts.length - 1;
    const prev = parts[last]!;
    for (const marker of MARKERS) {
      const n = marker.length;
      if (!prev.endsWith(marker) || !piece.startsWith(marker)) continue;
      // A closing marker after text, an opening one before text (not `***`), and no
      // backslash escaping the closing marker's first character.
      const end = prev.length - n;
      const before = prev.charAt(end - 1);
      const after = piece.charAt(n);
      if (!before || "*~".includes(before) || !after || "*~".includes(after)) break;
      let slashes = 0;
      while (slashes < end && prev.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 !== 0) break;
      parts[last] = prev.slice(0, end);
      parts.push(piece.slice(n));
      return;
    }
  }
  parts.push(piece);
}

/** Words or numbers: what emphasis can mark. */
const MARKABLE = /[\p{L}\p{N}]/u;

/**
 * Emphasis markers must touch the text: spaces and line breaks at its ends move outside them
 * (a marker after a break opens no emphasis and shows as an asterisk). Emphasis of punctuation
 * alone (`Name<em>,</em> who`) is dropped for the same reason.
 */
function wrap(content: string, marker: string): string {
  // Indexes, not /^(\s*)([\s\S]*?)(\s*)$/: that regex backtracks quadratically on long spaces.
  let start = 0;
  let end = content.length;
  while (start < end && isEdge(content.charCodeAt(start))) start++;
  while (end > start && isEdge(content.charCodeAt(end - 1))) end--;
  const inner = content.slice(start, end);
  if (!MARKABLE.test(inner)) return content;
  return `${content.slice(0, start)}${marker}${inner}${marker}${content.slice(end)}`;
}

/** Space or a line break (BR): what may not sit just inside an emphasis marker. */
function isEdge(code: number): boolean {
  return code === BR_CODE || isSpace(code);
}

const BR_CODE = BR.charCodeAt(0);

/** What /\s/ matches, for the characters markup text holds. */
function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0xfeff ||
    code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

function codeSpan(raw: string): string {
  const code = raw.replace(/\s+/g, " ");
  if (!code.trim()) return code;
  const marks = "`".repeat(longestRun(code, "`") + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${marks}${pad}${code}${pad}${marks}`;
}

function link(el: Element, ctx: Ctx): string {
  const note = ctx.notes.reference(el);
  if (note) return `[^${note}]`;
  if (ctx.inNote && isBacklink(el)) return "";
  const text = tidy(inlineChildren(el, ctx)).replace(/\\\n/g, " ");
  if (!text || pointsAtItself(el)) return text;
  const href = linkTarget(attr(el, "href") ?? "", ctx.base, ctx.notes.leadsInside(el));
  if (!href) return text;
  const title = collapse(attr(el, "title") ?? "");
  return `[${text}](${destination(href)}${title ? ` "${linkTitle(title)}"` : ""})`;
}

/** A link title inside double quotes: its backslashes, quotes and entity-like `&` escaped. */
function linkTitle(title: string): string {
  return title.replace(/[\\"]/g, "\\$&").replace(/&(?=#?\w+;)/g, "\\&");
}

function image(el: Element, ctx: Ctx): string {
  const view = imageView(el, ctx.base);
  if (!view) return "";
  if ("text" in view) return escapeText(view.text);
  // Alt text is inline content: escaped as any text is.
  const alt = escapeText(collapse(view.alt));
  return `![${alt}](${destination(view.src)})`;
}

/** A link destination that cannot end early: parentheses and spaces are percent-encoded. */
function destination(url: string): string {
  return url.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(/ /g, "%20");
}

/** Characters escapeText may change: text without any (most of it) is returned as it is. */
const ESCAPED = /[\\`*[\]_~<&]/;

/** Escapes what CommonMark would read as markup; `_` only where it could open emphasis. */
function escapeText(text: string): string {
  if (!ESCAPED.test(text) && !text.includes(BR)) return text;
  return text
    .replaceAll(BR, "\uFFFD") // NUL is BR's marker (decoding strips it from pages already)
    .replace(/[\\`*[\]]/g, "\\$&")
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
    .replace(/~~/g, "\\~\\~")
    .replace(/<(?=[A-Za-z/!?])/g, "\\<")
    // `&copy;` written out in the page would read as an entity.
    .replace(/&(?=#?\w+;)/g, "\\&");
}

const LINE_MARKERS = /^[\d#>+=-]/;
/**
 * Whitespace runs as /\s+/g finds them, less the single spaces already as they will be: most
 * text has no other, and a replace that matches nothing gives the same string back, uncopied.
 */
const WHITESPACE_TO_COLLAPSE = /\s\s+|[^\S ]/g;

/**
 * Collapses whitespace, turns <br> into hard breaks, escapes line starts read as blocks (with
 * `lineStarts`: after a heading's `## ` no text starts a line, and "1." stays as written).
 */
function tidy(text: string, lineStarts = true): string {
  const collapsed = text.replace(WHITESPACE_TO_COLLAPSE, " ");
  // One line, as most are: no list of lines to make and join.
  if (!collapsed.includes(BR)) {
    const line = collapsed.trim();
    return line && lineStarts ? escapeLineStart(line) : line;
  }
  // Empty lines (leading, trailing, or <br><br>) are dropped by the filter: linear, no shifting.
  const lines = collapsed.split(BR);
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed) kept.push(lineStarts ? escapeLineStart(trimmed) : trimmed);
  }
  return kept.join("\\\n");
}

function escapeLineStart(line: string): string {
  // Only a line opening with a digit or one of these can read as a block's marker.
  if (!LINE_MARKERS.test(line)) return line;
  const ordered = /^(\d+)([.)])(\s|$)/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`;
  if (/^(?:#{1,6}(?:\s|$)|>|[-+](?:\s|$)|=+$|-{3,}$)/.test(line)) return `\\${line}`;
  return line;
}
