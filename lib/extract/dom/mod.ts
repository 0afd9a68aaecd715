/**
 * A parsed DOM for the on-request features (custom rules, markdown, oEmbed discovery) and the
 * few helpers they share. The default fields never build a DOM; these features do, once.
 */
import { parseDocument } from "../stream/html_parser.ts";
import { compile } from "css-select";
import {
  type AnyNode,
  type ChildNode,
  type Document,
  type Element,
  isTag,
  isText,
} from "domhandler";
import * as DomUtils from "domutils";
import { getInnerHTML, getOuterHTML } from "domutils";
import { spend } from "./budget.ts";
import { BoundedMap } from "../../util/bounded_map.ts";
import { httpUrl } from "../../util/target_url.ts";

export type { AnyNode, Document, Element };

type Query = (element: Element) => boolean;

/**
 * Longest selector kept compiled. A compiled selector holds ~75 bytes a character (a 50 KB
 * list, ~4 MB): 1000 long ones would be gigabytes. Real rules are short and repeat; a long
 * one is compiled again when it comes again (linear, ~20 ms for 50 KB).
 */
export const MAX_CACHED_SELECTOR_CHARS = 512;

/** Compiled selectors, reused across requests: rules repeat, compiling does not need to. */
const compiled = new BoundedMap<string, Query>(1000, { maxKeyLength: MAX_CACHED_SELECTOR_CHARS });

export function parseHtml(html: string): Document {
  return parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true });
}

/**
 * css-select's view of the DOM, spending a step of the job's budget on every node it looks at:
 * a caller's selector (`:has(~ *, :has(~ *, :has(~ span)))`) can cost far more than linear time
 * inside one match, where no loop of ours could check the budget.
 */
const SPENDING_ADAPTER = {
  ...DomUtils,
  isTag(node: AnyNode): node is Element {
    spend();
    return isTag(node);
  },
};

/** Compiles a CSS selector; throws (css-what or css-select) on bad syntax or unknown pseudos. */
export function compileSelector(selector: string): Query {
  let query = compiled.get(selector);
  if (!query) {
    query = compile<AnyNode, Element>(selector, { adapter: SPENDING_ADAPTER }) as Query;
    compiled.set(selector, query);
  }
  return query;
}

/** Descendants of `root` matching `selector`, in document order (like querySelectorAll). */
export function selectAll(root: AnyNode, selector: string): Element[] {
  const query = compileSelector(selector);
  const out: Element[] = [];
  walkElements(root, (el) => {
    if (query(el)) out.push(el);
    return true;
  });
  return out;
}

/** The first descendant of `root` matching `selector`, or null (like querySelector). */
export function select(root: AnyNode, selector: string): Element | null {
  return firstElement(root, compileSelector(selector));
}

/** The first descendant of `root`, in document order, that passes `test`, or null. */
function firstElement(root: AnyNode, test: (el: Element) => boolean): Element | null {
  let found: Element | null = null;
  walkElements(root, (el) => {
    if (found) return false;
    if (test(el)) found = el;
    return !found;
  });
  return found;
}

/**
 * The first element from `node` on among its siblings, past whitespace and nodes no reader sees
 * (comments, and what browsers read as comments); null at text with words, or at the end.
 */
export function elementFrom(node: ChildNode | null): Element | null {
  for (let at = node; at; at = at.next) {
    spend();
    if (isTag(at)) return at;
    if (isText(at) && /\S/.test(at.data)) return null;
  }
  return null;
}

/**
 * Visits the element descendants of `root` in document order with an explicit stack, so that
 * deeply nested pages cannot overflow the call stack. `visit` returning false skips children.
 */
export function walkElements(root: AnyNode, visit: (el: Element) => boolean): void {
  const stack: AnyNode[] = [];
  pushChildren(stack, root);
  while (stack.length) {
    spend();
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (visit(node)) pushChildren(stack, node);
  }
}

function pushChildren(stack: AnyNode[], node: AnyNode): void {
  if (!("children" in node)) return;
  for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
}

export function attr(el: AnyNode, name: string): string | null {
  if (!isTag(el)) return null;
  const key = name.toLowerCase();
  return Object.hasOwn(el.attribs, key) ? el.attribs[key]! : null;
}

/** Elements whose boundaries separate words when text is read (a space is inserted). */
/** Block-level elements: markdown starts a new block at each, text views a new word. */
export const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "li",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

export { HEADING_TAGS } from "./tags.ts";

/** Where text content breaks: blocks, plus line breaks and list options. */
const BLOCK = new Set([...BLOCK_TAGS, "br", "option"]);
/** Never visible as text. */
const NO_TEXT = new Set(["script", "style", "template", "noscript", "head"]);

/** A space read where a block ends (one shared marker: textOf only reads it). */
const BLOCK_END = Object.freeze({ type: "text", data: " " }) as unknown as AnyNode;

/** Text content with whitespace collapsed and trimmed; block boundaries separate words. */
export function textOf(node: AnyNode): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length) {
    spend();
    const current = stack.pop()!;
    if (isText(current)) {
      parts.push(current.data);
    } else if (isTag(current)) {
      if (NO_TEXT.has(current.name) && current !== node) continue;
      const block = BLOCK.has(current.name);
      if (block) parts.push(" ");
      // A marker after the children: the block's closing boundary.
      if (block) stack.push(BLOCK_END);
      pushChildren(stack, current);
    } else if ("children" in current) {
      pushChildren(stack, current);
    }
  }
  return collapse(parts.join(""));
}

/** Raw text content (whitespace kept), read without recursion. */
export function rawText(node: AnyNode): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length) {
    spend();
    const current = stack.pop()!;
    if (isText(current)) parts.push(current.data);
    else if ("children" in current) pushChildren(stack, current);
  }
  return parts.join("");
}

export function collapse(text: string): string {
  return text.replace(SPACING, " ").trim();
}

/**
 * The whitespace runs collapse() changes: a lone space is left as it is, so most texts match
 * nothing and are not rebuilt (a replace of every `\s+` rebuilt the string at every word).
 */
const SPACING = /\s{2,}|[^\S ]/g;

export function innerHtml(node: AnyNode): string {
  return getInnerHTML(node, { decodeEntities: true });
}

export function outerHtml(node: AnyNode): string {
  return getOuterHTML(node, { decodeEntities: true });
}

/** The base for relative URLs: `<base href>` resolved against the page URL, else the page URL. */
export function baseUrl(doc: AnyNode, pageUrl: string): string {
  const href = attr(firstBase(doc) ?? doc, "href");
  if (href) {
    const resolved = absoluteUrl(href, pageUrl);
    if (resolved) return resolved;
  }
  return pageUrl;
}

/**
 * The first `base[href]` of `root`, as select() finds it, by a plain test: run on every
 * request, the compiled selector's walk of the whole page cost more than the rest of baseUrl.
 */
function firstBase(root: AnyNode): Element | null {
  return firstElement(
    root,
    (el) => el.name === "base" && Object.hasOwn(el.attribs, "href") && el.attribs.href != null,
  );
}

/** An absolute http(s) URL for `value` relative to `base`, or null (javascript:, data:, junk). */
export function absoluteUrl(value: string, base: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return httpUrl(trimmed, base)?.href ?? null;
}
