/**
 * DOM -> CommonMark (plus GFM tables and strikethrough). Blocks are rendered to strings and
 * joined by blank lines; inline content is escaped, then its whitespace collapsed.
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { absoluteUrl, attr, BLOCK_TAGS, collapse, rawText, walkElements } from "./dom.ts";

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
  if (el.name === "header" && !hasHeading(el)) return true;
  const names = `${a.class ?? ""} ${a.id ?? ""}`;
  return NOISE.test(names) && !MAYBE_CONTENT.test(names) && el.name !== "body";
}

function hasHeading(el: Element): boolean {
  let found = false;
  walkElements(el, (child) => {
    found ||= /^h[1-3]$/.test(child.name);
    return !found;
  });
  return found;
}

function blocks(nodes: AnyNode[], ctx: Ctx): string[] {
  const out: string[] = [];
  let inline: string[] = [];
  const flush = () => {
    const text = tidy(inline.join(""));
    if (text) out.push(text);
    inline = [];
  };
  for (const node of nodes) {
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
  if (BLOCK_TAGS.has(tag) || hasBlockChild(el)) return children(el, ctx);
  return null;
}

/** An inline element wrapping blocks (a <span> or custom element around paragraphs). */
function hasBlockChild(el: Element): boolean {
  let found = false;
  walkElements(el, (child) => {
    if (found || ALWAYS_DROP.has(child.name)) return false;
    found = BLOCK_TAGS.has(child.name);
    return !found;
  });
  return found;
}

function list(el: Element, ctx: Ctx): string {
  const ordered = el.name === "ol";
  let n = Number.parseInt(attr(el, "start") ?? "1", 10);
  if (!Number.isFinite(n)) n = 1;
  const items: string[] = [];
  for (const child of el.children) {
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
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = "`".repeat(longest + 1);
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
  if (cells.some((row) => row.some((cell) => hasBlockChild(cell)))) return children(el, ctx);
  const grid = cells.map((row) =>
    row.flatMap((cell) => {
      const text = inline(cell, ctx).replace(/\\\n/g, " ").replace(/\|/g, "\\|");
      const span = Math.min(Number.parseInt(attr(cell, "colspan") ?? "1", 10) || 1, 50);
      return [text, ...Array<string>(span - 1).fill("")];
    })
  ).filter((row) => row.length);
  if (!grid.length) return [];
  const width = Math.max(...grid.map((row) => row.length));
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
    return el.children.map((c) => inlineNode(c, ctx)).join("");
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
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(content)!;
  const inner = match[2]!;
  if (!inner || inner === BR) return content;
  return `${match[1]}${marker}${inner}${marker}${match[3]}`;
}

function codeSpan(raw: string): string {
  const code = raw.replace(/\s+/g, " ");
  if (!code.trim()) return code;
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = "`".repeat(longest + 1);
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
    .replace(/[\\`*[\]]/g, "\\$&")
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_")
    .replace(/~~/g, "\\~\\~")
    .replace(/<(?=[A-Za-z/!?])/g, "\\<");
}

/** Collapses whitespace, turns <br> into hard breaks, escapes line starts read as blocks. */
function tidy(text: string): string {
  const lines = text.replace(/\s+/g, " ").split(BR).map((l) => l.trim());
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  return lines.filter((l) => l).map(escapeLineStart).join("\\\n");
}

function escapeLineStart(line: string): string {
  const ordered = /^(\d+)([.)])(\s|$)/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1]!.length)}`;
  if (/^(?:#{1,6}(?:\s|$)|>|[-+](?:\s|$)|=+$|-{3,}$)/.test(line)) return `\\${line}`;
  return line;
}
