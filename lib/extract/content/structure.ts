/**
 * The article's text as the page states it in schema.org JSON-LD (`articleBody`): the
 * container holding the paragraphs found in it is the article, whatever the scores say. When
 * the page's markup shows far less of it (a page its scripts fill in, a teaser above a
 * paywall), the statement itself is the content.
 */
import type { Document, Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { parseHtml, rawText, selectAll, textOf } from "../dom/mod.ts";
import { parentElement } from "./score.ts";

/** Shorter statements are summaries, not the body. */
const MIN_BODY = 300;
/** Bounds on the work: paragraphs compared, characters of body searched. */
const MAX_PARAGRAPHS = 300;
const MAX_BODY = 200_000;
const BODY_FIELD = /"articleBody"\s*:\s*("(?:[^"\\]|\\.)*")/g;

const normal = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** The page's statement of its article's body. */
export interface StatedBody {
  /** The statement as written: text, or the body's HTML (many CMSs state its markup). */
  text: string;
  /** The statement normalised, for finding the paragraphs that show it. */
  normal: string;
}

/** A tag: a statement holding one is HTML. */
const TAG = /<\/?[a-z][\w-]*(?:\s[^<>]*)?>/i;
const TAGS = /<[^<>]*>/g;

/** The longest `articleBody` string of the page's JSON-LD, or null. */
export function statedBody(scripts: Element[]): StatedBody | null {
  let best = "";
  for (const script of scripts) {
    for (const match of rawText(script).slice(0, MAX_BODY * 2).matchAll(BODY_FIELD)) {
      spend();
      try {
        const text = JSON.parse(match[1]!) as string;
        if (text.length > best.length) best = text;
      } catch {
        // A malformed string: no statement.
      }
    }
  }
  if (best.length < MIN_BODY) return null;
  const text = best.slice(0, MAX_BODY);
  return { text, normal: normal(text) };
}

/** Least share of the statement the markup's content shows before the statement is used. */
const SHOWN_SHARE = 0.3;

/**
 * The stated body as a document of its own, when the content found in the markup shows less
 * than SHOWN_SHARE of its characters; else null. Stated text becomes a paragraph a line; its
 * character references ("&#8217;", common) are read, but no "<" in it opens a tag.
 */
export function statedInstead(stated: StatedBody, shown: number): Document | null {
  // The statement as written is never shorter than its words: most pages show enough of it
  // that its tags need not be taken out to know.
  if (shown >= stated.text.length * SHOWN_SHARE) return null;
  if (shown >= normal(stated.text.replace(TAGS, " ")).length * SHOWN_SHARE) return null;
  const html = TAG.test(stated.text)
    ? stated.text
    : stated.text.split(/\n\s*/).map((line) => `<p>${line.replaceAll("<", "&lt;")}</p>`).join("");
  return parseHtml(html);
}

/** The nearest common container of the paragraphs whose text `body` states, or null. */
export function statedContainer(root: Element, body: string): Element | null {
  const found: Element[] = [];
  let checked = 0;
  for (const p of selectAll(root, "p")) {
    if (++checked > MAX_PARAGRAPHS) break;
    const text = normal(textOf(p));
    if (text.length >= 40 && body.includes(text.slice(0, 80))) found.push(p);
  }
  if (found.length < 2) return null;
  return commonAncestor(found[0]!, found.slice(1));
}

/**
 * The nearest ancestor of `first` that every one of `others` is under, or null; with `below`,
 * only ancestors under it count. Each element climbs once to the first ancestor of `first` it
 * meets: linear in the depths.
 */
export function commonAncestor(
  first: Element,
  others: Element[],
  below?: Element,
): Element | null {
  const depth = new Map<Element, number>();
  let d = 0;
  for (let up = parentElement(first); up && up !== below; up = parentElement(up)) {
    spend();
    depth.set(up, d++);
  }
  let highest = 0;
  for (const other of others) {
    let up = parentElement(other);
    while (up && !depth.has(up)) {
      spend();
      up = parentElement(up);
    }
    if (!up) return null;
    highest = Math.max(highest, depth.get(up)!);
  }
  for (const [el, at] of depth) if (at === highest) return el;
  return null;
}
