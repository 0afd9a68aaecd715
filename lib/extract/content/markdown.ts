/**
 * The `markdown` view: the page's main content as CommonMark, for people feeding language
 * models. Main content is found the way readability does: <article>/<main>/role=main when the
 * page marks it, else the container holding the most paragraph text.
 */
import { type AnyNode, type Element, isTag, type Text } from "domhandler";
import {
  attr,
  baseUrl,
  collapse,
  type Document,
  select,
  selectAll,
  textOf,
  walkElements,
} from "../dom/mod.ts";
import { headingText, renderMarkdown, skip } from "./markdown_render.ts";
import { spend } from "../dom/budget.ts";

/**
 * Main content of the page fetched from `url` as Markdown. The page title is the first heading:
 * a `# title` line is added unless the content's first heading is an h1 or the title itself.
 */
export function documentToMarkdown(doc: Document, url: string): string {
  const base = baseUrl(doc, url);
  const { markdown, firstHeading, firstHeadingText } = renderMarkdown(mainContent(doc), {
    baseUrl: base,
    clean: true,
  });
  let title = firstHeading === 1 ? null : pageTitle(doc);
  // The title written as a lower heading is the first heading already: not twice.
  if (title && sameText(title, firstHeadingText)) title = null;
  const page = title ? `# ${headingText(title)}\n\n${markdown}` : markdown;
  return page.trim();
}

/** One element (or the whole page, for a rule without selector) as Markdown, nothing dropped. */
export function nodeToMarkdown(node: AnyNode, options: { baseUrl: string }): string {
  return renderMarkdown(node, { baseUrl: options.baseUrl }).markdown.trim();
}

function sameText(a: string, b: string): boolean {
  return collapse(a).toLowerCase() === collapse(b).toLowerCase();
}

function pageTitle(doc: Document): string | null {
  const title = select(doc, "title");
  const text = title ? textOf(title) : "";
  if (text) return text;
  const og = select(doc, 'meta[property="og:title"]');
  return og ? collapse(attr(og, "content") ?? "") || null : null;
}

const MARKED = ["article", '[itemprop="articleBody"]', "main", '[role="main"]'];

/**
 * A converted document (documentHtml) marks its body as all content: a short one would
 * otherwise lose every part after its first to the scoring below.
 */
export const WHOLE_CONTENT = "main[data-document]";

/** The element holding the page's main content; the body when nothing stands out. */
export function mainContent(doc: Document): AnyNode {
  const body = select(doc, "body") ?? doc;
  const whole = select(body, WHOLE_CONTENT);
  if (whole) return whole;
  for (const selector of MARKED) {
    const found = pickMarked(selectAll(body, selector));
    if (found) return found;
  }
  return bestByParagraphs(body) ?? body;
}

/**
 * Among elements the page marked as content, the one that dominates: a listing page with ten
 * <article> cards has no single main article, and the next marker (or scoring) decides.
 */
function pickMarked(candidates: Element[]): Element | null {
  const visible = candidates.filter((el) => !inChrome(el));
  if (!visible.length) return null;
  const sizes = textLengths(visible);
  const sized = visible.map((el) => ({ el, size: sizes.get(el)! }));
  const total = sized.reduce((sum, c) => sum + c.size, 0);
  const best = sized.reduce((a, b) => (b.size > a.size ? b : a));
  if (best.size < 140) return null;
  return best.size >= total * 0.6 ? best.el : null;
}

/** Whether each element is page chrome or inside it, remembered (asked of every paragraph). */
const IN_CHROME = new WeakMap<Element, boolean>();

/** Inside navigation, asides, footers or hidden parts: never the main content. */
function inChrome(el: Element): boolean {
  // Up to the nearest ancestor already known, then every element on the way gets the answer.
  const path: Element[] = [];
  let answer = false;
  for (let node: Element | null = el; node; node = parentElement(node)) {
    spend();
    const known = IN_CHROME.get(node);
    if (known !== undefined) {
      answer = known;
      break;
    }
    path.push(node);
  }
  // From the top down: an element is chrome when its parent's answer is, or it is itself.
  for (let i = path.length - 1; i >= 0; i--) {
    answer = answer || skip(path[i]!, { clean: true });
    IN_CHROME.set(path[i]!, answer);
  }
  return answer;
}

/**
 * Characters of text under each of `elements` (whitespace runs counted once), in one walk of
 * the document: nested candidates (an <article> in an <article>) share their text's count.
 */
function textLengths(elements: Element[]): Map<Element, number> {
  const wanted = new Set<AnyNode>(elements);
  const sizes = new Map<Element, number>();
  let root: AnyNode = elements[0]!;
  while (root.parent) root = root.parent;
  // Post-order: a node's length is its own text plus its children's, settled first.
  const lengths = new Map<AnyNode, number>();
  const stack: [AnyNode, boolean][] = [[root, false]];
  while (stack.length) {
    const [node, childrenDone] = stack.pop()!;
    spend();
    if (node.type === "text") {
      lengths.set(node, collapse((node as Text).data).length + 1);
      continue;
    }
    if (!("children" in node)) continue;
    if (isTag(node) && (node.name === "script" || node.name === "style")) continue;
    if (!childrenDone) {
      stack.push([node, true]);
      for (const child of node.children) stack.push([child, false]);
      continue;
    }
    let length = 0;
    for (const child of node.children) length += lengths.get(child) ?? 0;
    for (const child of node.children) lengths.delete(child);
    lengths.set(node, length);
    if (wanted.has(node)) sizes.set(node as Element, length);
  }
  return sizes;
}

function parentElement(el: Element): Element | null {
  const parent = el.parent;
  return parent && isTag(parent) ? parent : null;
}

/**
 * Readability's scoring, reduced: each paragraph of 25+ characters scores 1 + its commas +
 * up to 3 for length, given to its parent and half to its grandparent; the top scorer wins.
 */
function bestByParagraphs(body: AnyNode): Element | null {
  const scores = new Map<Element, number>();
  walkElements(body, (el) => {
    spend();
    if (el.name !== "p" && el.name !== "pre") return true;
    if (inChrome(el)) return false;
    const text = textOf(el);
    if (text.length < 25) return false;
    const score = 1 + (text.match(/,/g)?.length ?? 0) + Math.min(Math.floor(text.length / 100), 3);
    const parent = parentElement(el);
    if (parent) scores.set(parent, (scores.get(parent) ?? 0) + score);
    const grand = parent && parentElement(parent);
    if (grand) scores.set(grand, (scores.get(grand) ?? 0) + score / 2);
    return false;
  });
  let best: Element | null = null;
  let bestScore = 0;
  for (const [el, score] of scores) {
    if (score > bestScore) [best, bestScore] = [el, score];
  }
  return best;
}
