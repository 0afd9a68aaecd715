/**
 * DOM -> CommonMark (plus GFM tables and strikethrough). Blocks are rendered to strings and
 * joined by blank lines; inline content is escaped, then its whitespace collapsed.
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { absoluteUrl, attr, BLOCK_TAGS, collapse, rawText } from "../dom/mod.ts";
import { spend } from "../dom/budget.ts";

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
  depth: number;
}

/** Deeper than this (unclosed tags on broken pages) the rest is read as plain text. */
const MAX_DEPTH = 400;
/** A <br> inside inline text until tidy() makes it a hard break; text never holds one. */
const BR = "\u0000";
/** Past this many cells (columns x rows, padded) a table is read as plain blocks. */
const MAX_TABLE_CELLS = 100_000;

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
const ALIGN = new Map([["left", ":---"], ["center", ":---:"], ["right", "---:"]]);
const MAYBE_CONTENT = /article|body|content|main|post|entry|story/i;

/** Renders `node`'s content; returns the Markdown and whether it held an h1. */
export function renderMarkdown(
  node: AnyNode,
  options: RenderOptions,
): { markdown: string; hasH1: boolean } {
  const ctx: Ctx = { base: options.baseUrl, clean: options.clean ?? false, sawH1: false, depth: 0 };
  const nodes = isTag(node) && !skip(node, ctx) ? [node] : "children" in node ? node.children : [];
  const markdown = blocks(nodes, ctx).join("\n\n");
  return { markdown, hasH1: ctx.sawH1 };
}

/** True when the element is not content: scripts, hidden parts and, when clean, page chrome. */
export function skip(el: Element, ctx: { clean: boolean }): boolean {
  if (ALWAYS_DROP.has(el.name)) return true;
  const a = el.attribs;
  if (a.hidden !== undefined || a["aria-hidden"] === "true") return true;
  if (a.style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(a.style)) return true;
  if (!ctx.clean) return false;
  if (CLEAN_DROP.has(el.name)) return true;
  if (a.role && DROP_ROLES.has(a.role.toLowerCase())) return true;
  if (el.name === "header" && !HAS_HEADING.has(el)) return true;
  const names = `${a.class ?? ""} ${a.id ?? ""}`;
  return NOISE.test(names) && !MAYBE_CONTENT.test(names) && el.name !== "body";
}

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
  for (const node of nodes) {
    spend();
    if (isText(node)) {
      inline.push(escapeText(node.data));
      continue;
    }
    if (!isTag(node) || skip(node, ctx)) continue;
    const rendered = block(node, ctx);
    if (rendered === null) {
      inline.push(inlineNode(node, ctx));
    } else {
      flush();
      for (const b of rendered) if (b) out.push(b);
    }
  }
  flush();
  return out;
}

function children(el: Element, ctx: Ctx): string[] {
  if (ctx.depth > MAX_DEPTH) return [tidy(escapeText(rawText(el)))];
  ctx.depth++;
  try {
    return blocks(el.children, ctx);
  } finally {
    ctx.depth--;
  }
}

/** A block element's Markdown blocks, or null when `el` is inline. */
function block(el: Element, ctx: Ctx): string[] | null {
  const tag = el.name;
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    const text = inline(el, ctx).replace(/\\\n/g, " ");
    if (!text) return [];
    if (tag === "h1") ctx.sawH1 = true;
    return [`${"#".repeat(Number(heading[1]))} ${text}`];
  }
  switch (tag) {
    case "p":
    case "figcaption":
    case "summary":
    case "caption":
    case "dd":
      return [inline(el, ctx)];
    case "dt": {
      const text = inline(el, ctx);
      return [text ? `**${text}**` : ""];
    }
    case "hr":
      return ["---"];
    case "ul":
    case "ol":
      return [list(el, ctx)];
    case "blockquote":
      return [quote(children(el, ctx))];
    case "pre":
      return [fence(el)];
    case "table":
      return table(el, ctx);
  }
  if (BLOCK_TAGS.has(tag) || HAS_BLOCK.has(el)) return children(el, ctx);
  return null;
}

function list(el: Element, ctx: Ctx): string {
  const ordered = el.name === "ol";
  let n = Number.parseInt(attr(el, "start") ?? "1", 10);
  if (!Number.isFinite(n)) n = 1;
  const items: string[] = [];
  for (const child of el.children) {
    spend();
    if (!isTag(child) || skip(child, ctx)) continue;
    if (child.name === "ul" || child.name === "ol") {
      // A list directly inside a list (invalid, common): it belongs to the previous item.
      const nested = indent(list(child, ctx), "  ");
      if (items.length) items[items.length - 1] += "\n" + nested;
      continue;
    }
    const parts = child.name === "li" ? children(child, ctx) : blocks([child], ctx);
    if (!parts.length) continue;
    const marker = ordered ? `${n++}. ` : "- ";
    const tight = parts.length === 1 || (parts.length === 2 && isList(parts[1]!));
    const body = parts.join(tight ? "\n" : "\n\n");
    items.push(marker + indent(body, " ".repeat(marker.length)).slice(marker.length));
  }
  return items.join("\n");
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

function fence(pre: Element): string {
  let code = rawText(pre).replace(/^\r?\n/, "").replace(/\s+$/, "");
  code = code.replace(/\r\n?/g, "\n");
  if (!code) return "";
  const codeEl = pre.children.find((c): c is Element => isTag(c) && c.name === "code");
  const classes = `${attr(pre, "class") ?? ""} ${codeEl ? attr(codeEl, "class") ?? "" : ""}`;
  const lang = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ??
    attr(pre, "data-lang") ?? "";
  const marks = "`".repeat(Math.max(2, longestRun(code, "`")) + 1);
  return `${marks}${lang}\n${code}\n${marks}`;
}

function table(el: Element, ctx: Ctx): string[] {
  const rows: Element[] = [];
  for (const child of el.children) {
    if (!isTag(child)) continue;
    if (child.name === "tr") rows.push(child);
    else if (["thead", "tbody", "tfoot"].includes(child.name)) {
      for (const tr of child.children) if (isTag(tr) && tr.name === "tr") rows.push(tr);
    }
  }
  const cells = rows.map((tr) =>
    tr.children.filter((c): c is Element => isTag(c) && (c.name === "td" || c.name === "th"))
  );
  // Layout tables (blocks or tables inside cells) are read as plain containers.
  if (cells.some((row) => row.some((cell) => HAS_BLOCK.has(cell)))) return children(el, ctx);
  const grid = cells.map((row) =>
    row.flatMap((cell) => {
      const text = inline(cell, ctx).replace(/\\\n/g, " ").replace(/\|/g, "\\|");
      const span = Math.min(Number.parseInt(attr(cell, "colspan") ?? "1", 10) || 1, 50);
      return [text, ...Array<string>(span - 1).fill("")];
    })
  ).filter((row) => row.length);
  if (!grid.length) return [];
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0);
  // Every row is padded to the widest: one wide row over many rows is not a table to draw.
  if (width * grid.length > MAX_TABLE_CELLS) return children(el, ctx);
  const line = (row: string[]) =>
    `| ${[...row, ...Array<string>(width - row.length).fill("")].join(" | ")} |`;
  const head = cells[0] ?? [];
  const align = Array.from({ length: width }, (_, i) => {
    const cell = head[i];
    const value = (cell && (attr(cell, "align") ??
      /text-align\s*:\s*(\w+)/i.exec(attr(cell, "style") ?? "")?.[1])) ?? "";
    return ALIGN.get(value.toLowerCase()) ?? "---";
  });
  const caption = el.children.find((c): c is Element => isTag(c) && c.name === "caption");
  const out = [line(grid[0]!), `| ${align.join(" | ")} |`, ...grid.slice(1).map(line)];
  return [caption ? inline(caption, ctx) : "", out.join("\n")];
}

function inline(el: Element, ctx: Ctx): string {
  return tidy(inlineChildren(el, ctx));
}

function inlineChildren(el: Element, ctx: Ctx): string {
  if (ctx.depth > MAX_DEPTH) return escapeText(rawText(el));
  ctx.depth++;
  try {
    return el.children.map((c) => {
      spend();
      return inlineNode(c, ctx);
    }).join("");
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
      return wrap(inlineChildren(node, ctx), "**");
    case "em":
    case "i":
    case "cite":
    case "dfn":
      return wrap(inlineChildren(node, ctx), "*");
    case "del":
    case "s":
    case "strike":
      return wrap(inlineChildren(node, ctx), "~~");
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

/** Emphasis markers must touch the text: spaces move outside them. */
function wrap(content: string, marker: string): string {
  // Indexes, not /^(\s*)([\s\S]*?)(\s*)$/: that regex backtracks quadratically on long spaces.
  let start = 0;
  let end = content.length;
  while (start < end && isSpace(content.charCodeAt(start))) start++;
  while (end > start && isSpace(content.charCodeAt(end - 1))) end--;
  const inner = content.slice(start, end);
  if (!inner || inner === BR) return content;
  return `${content.slice(0, start)}${marker}${inner}${marker}${content.slice(end)}`;
}

/** What /\s/ matches, for the characters markup text holds. */
function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0xfeff ||
    code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000;
}

/** The longest run of `char` in `text` (a loop: spreading every run into Math.max overflows). */
function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text[i] === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

function codeSpan(raw: string): string {
  const code = raw.replace(/\s+/g, " ");
  if (!code.trim()) return code;
  const marks = "`".repeat(longestRun(code, "`") + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${marks}${pad}${code}${pad}${marks}`;
}

function link(el: Element, ctx: Ctx): string {
  const text = tidy(inlineChildren(el, ctx)).replace(/\\\n/g, " ");
  const href = absoluteUrl(attr(el, "href") ?? "", ctx.base);
  if (!text || !href) return text;
  const title = attr(el, "title");
  return `[${text}](${destination(href)}${title ? ` "${title.replace(/"/g, '\\"')}"` : ""})`;
}

function image(el: Element, ctx: Ctx): string {
  const srcset = attr(el, "srcset")?.trim().split(/\s+/)[0];
  const candidates = [attr(el, "src"), attr(el, "data-src"), attr(el, "data-original"), srcset];
  for (const candidate of candidates) {
    const src = candidate ? absoluteUrl(candidate, ctx.base) : null;
    if (!src) continue;
    const alt = collapse(attr(el, "alt") ?? "").replace(/[[\]\\]/g, "\\$&");
    return `![${alt}](${destination(src)})`;
  }
  return "";
}

/** A link destination that cannot end early: parentheses and spaces are percent-encoded. */
function destination(url: string): string {
  return url.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(/ /g, "%20");
}

/** Escapes what CommonMark would read as markup; `_` only where it could open emphasis. */
function escapeText(text: string): string {
  return text
    .replaceAll(BR, "\uFFFD") // NUL is BR's marker (decoding strips it from pages already)
    .replace(/[\\`*[\]]/g, "\\$&")
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
    .replace(/~~/g, "\\~\\~")
    .replace(/<(?=[A-Za-z/!?])/g, "\\<");
}

/** Collapses whitespace, turns <br> into hard breaks, escapes line starts read as blocks. */
function tidy(text: string): string {
  // Empty lines (leading, trailing, or <br><br>) are dropped by the filter: linear, no shifting.
  const lines = text.replace(/\s+/g, " ").split(BR);
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed) kept.push(escapeLineStart(trimmed));
  }
  return kept.join("\\\n");
}

function escapeLineStart(line: string): string {
  const ordered = /^(\d+)([.)])(\s|$)/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`;
  if (/^(?:#{1,6}(?:\s|$)|>|[-+](?:\s|$)|=+$|-{3,}$)/.test(line)) return `\\${line}`;
  return line;
}
