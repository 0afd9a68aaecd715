/**
 * Sizes of every element's visible text, counted once for the whole page in one post-order
 * walk (a parent's figures are the sums of its children's), so that scoring and pruning read
 * link density, paragraph counts and the like in constant time per element.
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { spend } from "../dom/budget.ts";
import { BLOCK_TAGS } from "../dom/mod.ts";
import { isHidden } from "./visibility.ts";

export interface Stats {
  /** Characters of visible text, whitespace runs counted as one. */
  text: number;
  /** Of which inside links. */
  linkText: number;
  /** Commas (Latin, CJK, Arabic): clauses of running prose. */
  commas: number;
  paragraphs: number;
  images: number;
  listItems: number;
  inputs: number;
  embeds: number;
  headingText: number;
  /** Whether a block element is inside (a div holding only inline content reads as a <p>). */
  hasBlock: boolean;
}

/** Never text a reader sees. */
export const SILENT = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "select",
  "textarea",
  "button",
  "option",
  "dialog",
]);

/**
 * Elements that start a block of their own in reading: the DOM's block tags, less the short
 * labels a paragraph's count should not be split at (a table's caption, a details' summary).
 */
export const BLOCKS: ReadonlySet<string> = new Set(
  [...BLOCK_TAGS].filter((tag) => !["caption", "html", "summary"].includes(tag)),
);

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const EMBEDS = new Set(["iframe", "object", "embed", "video", "audio"]);
export const COMMAS = /[,\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32\uff0c\u3001]/g;

export const EMPTY: Stats = Object.freeze({
  text: 0,
  linkText: 0,
  commas: 0,
  paragraphs: 0,
  images: 0,
  listItems: 0,
  inputs: 0,
  embeds: 0,
  headingText: 0,
  hasBlock: false,
});

export interface PageStats {
  of(el: Element): Stats;
  /** Hidden by the page (or inside something hidden). */
  hidden: Set<Element>;
  /** <main> and role=main elements, in document order. */
  mains: Element[];
  /** JSON-LD scripts. */
  jsonLd: Element[];
}

/** Counts every element under `root`; silent elements count nothing. */
export function measure(root: AnyNode): PageStats {
  const stats = new Map<Element, Stats>();
  const hidden = new Set<Element>();
  const mains: Element[] = [];
  const jsonLd: Element[] = [];
  // Text lengths of text nodes wait on the stack beside their parents' running totals.
  const stack: [AnyNode, boolean][] = [[root, false]];
  const totals: Stats[] = [];
  const open = (): Stats => ({ ...EMPTY });
  totals.push(open());
  while (stack.length) {
    spend();
    const [node, done] = stack.pop()!;
    if (isText(node)) {
      const text = node.data;
      if (!/\S/.test(text)) {
        totals[totals.length - 1]!.text += text.length ? 1 : 0;
        continue;
      }
      const top = totals[totals.length - 1]!;
      top.text += text.replace(/\s+/g, " ").length;
      top.commas += text.match(COMMAS)?.length ?? 0;
      continue;
    }
    if (!("children" in node)) continue;
    const el = isTag(node) ? node : null;
    if (!done) {
      if (el) {
        if (el.name === "img" || el.name === "picture") {
          totals[totals.length - 1]!.images++;
          continue;
        }
        if (el.name === "input") {
          totals[totals.length - 1]!.inputs++;
          continue;
        }
        if (EMBEDS.has(el.name)) totals[totals.length - 1]!.embeds++;
        if (el.name === "script" && el.attribs.type === "application/ld+json") jsonLd.push(el);
        if (SILENT.has(el.name)) continue;
        if (el.name === "main" || el.attribs.role === "main") mains.push(el);
        if (isHidden(el)) hidden.add(el);
      }
      stack.push([node, true]);
      totals.push(open());
      for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, false]);
      continue;
    }
    const own = totals.pop()!;
    const parent = totals[totals.length - 1]!;
    if (el) {
      if (el.name === "a") own.linkText = own.text;
      if (el.name === "p") own.paragraphs++;
      if (el.name === "li") own.listItems++;
      if (HEADINGS.has(el.name)) own.headingText = own.text;
      if (BLOCKS.has(el.name)) parent.hasBlock = true;
      stats.set(el, own);
    }
    parent.text += own.text;
    parent.linkText += own.linkText;
    parent.commas += own.commas;
    parent.paragraphs += own.paragraphs;
    parent.images += own.images;
    parent.listItems += own.listItems;
    parent.inputs += own.inputs;
    parent.embeds += own.embeds;
    parent.headingText += own.headingText;
    parent.hasBlock ||= own.hasBlock;
  }
  // Most of the page hidden is content a script shows (a paywall or age gate in the markup):
  // readers of the page see it, and so it counts.
  const total = stats.get(root as Element)?.text ?? totals[0]!.text;
  for (const el of hidden) {
    spend();
    if (stats.get(el)!.text >= total * 0.25) hidden.delete(el);
  }
  return { of: (el) => stats.get(el) ?? EMPTY, hidden, mains, jsonLd };
}

export function linkDensity(s: Stats): number {
  return s.text ? Math.min(1, s.linkText / s.text) : 0;
}
