/**
 * The article's lead (standfirst, deck, subtitle): the paragraph a news page sets under the
 * headline, in the story's header rather than its body. The scores choose the body; the lead,
 * named as such or showing the page's stated description, and just before it, belongs to the
 * story too (trafilatura keeps it).
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { attr, HEADING_TAGS, selectAll } from "../dom/mod.ts";
import { namesSay, type NamesTest } from "./classes.ts";
import { parentElement } from "./score.ts";
import { linkDensity, type PageStats, SILENT, type Stats } from "./stats.ts";

/** Words that name a story's lead. */
const LEAD_WORDS = new Set([
  "lead",
  "lede",
  "deck",
  "dek",
  "standfirst",
  "subtitle",
  "subheadline",
  "subhead",
  "excerpt",
  "perex",
  "intro",
  "summary",
  "abstract",
  "sapo",
  "chapo",
  "entradilla",
  "bajada",
  "vorspann",
  "teasertext",
  "teaser",
]);
/** Words that make a token name something else: a lead video, a rating's summary. */
const NOT_LEAD = new Set([
  "video",
  "image",
  "img",
  "photo",
  "media",
  "rating",
  "ratings",
  "review",
  "reviews",
  "product",
  "price",
  "cart",
  // A field type ("text-with-summary"), not a part of the story.
  "with",
]);
const LEAD_NAMES: NamesTest = (tokens) =>
  tokens.some((words) =>
    words.some((w) => LEAD_WORDS.has(w)) && !words.some((w) => NOT_LEAD.has(w))
  );

/** How far up from the content the story's header is looked for, in levels holding words: a
 * CMS's empty wrappers around the body do not count. */
const LEVELS = 4;
/** A header holding more than this is a page's part, not a story's header. */
const HEADER_MAX = 3000;
/** A lead's length: a sentence or a short paragraph. */
const LEAD_MIN = 40;
const LEAD_MAX = 800;
/** Elements looked at in all, at most: the lead sits close to the body or is not there. */
const LOOKS = 200;

/** The page's stated descriptions (meta description, og: and twitter:), normalised. */
export function statedDescriptions(head: Element | null): string[] {
  if (!head) return [];
  const out = new Set<string>();
  for (const meta of selectAll(head, DESCRIPTION_META)) {
    const text = comparable(attr(meta, "content") ?? "");
    if (text.length >= LEAD_MIN) out.add(text);
  }
  return [...out];
}

const DESCRIPTION_META = 'meta[name="description"], meta[property="og:description"], ' +
  'meta[name="twitter:description"], meta[property="twitter:description"]';

/** Lowercased, whitespace collapsed, a trailing ellipsis of a cut description dropped. */
function comparable(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase().replace(/\s*(?:…|\.\.\.)$/, "");
}

/** Characters of a lead and a description compared: their openings. */
const OPENING = 100;

/** Whether `text` shows one of `descriptions`: the same opening words. */
function showsDescription(text: string, descriptions: string[]): boolean {
  const own = comparable(text).slice(0, OPENING);
  if (own.length < LEAD_MIN) return false;
  return descriptions.some((d) => d.startsWith(own) || own.startsWith(d.slice(0, OPENING)));
}

/**
 * The lead just before `first` (the content's first root): in an element before it, under one
 * of its first few ancestors, a block named as a lead or showing one of `descriptions` (the
 * page's stated ones), of a paragraph's length and mostly no link. Null when there is none or
 * it is already in the content.
 */
export function leadBefore(
  first: Element,
  stats: PageStats,
  body: Element,
  descriptions: string[] = [],
): Element | null {
  const looks = { left: LOOKS };
  let child = first;
  for (
    let up = parentElement(first), level = 0;
    up && up !== body && level < LEVELS;
    child = up, up = parentElement(up)
  ) {
    let worded = false;
    for (let sib = child.prev; sib && looks.left > 0; sib = sib.prev) {
      spend();
      looks.left--;
      if (sib.type !== "tag") continue;
      const el = sib as Element;
      if (SILENT.has(el.name) || stats.hidden.has(el)) continue;
      const text = stats.of(el).text;
      if (text > HEADER_MAX) return null;
      if (text > 0) worded = true;
      const lead = namedLead(el, stats, looks, descriptions);
      if (lead) return lead;
    }
    if (worded) level++;
  }
  return null;
}

/**
 * The first element in `root` (itself included) named as a lead, or a line showing one of
 * `descriptions`, and shaped as a lead.
 */
function namedLead(
  root: Element,
  stats: PageStats,
  looks: { left: number },
  descriptions: string[],
): Element | null {
  const stack: Element[] = [root];
  while (stack.length && looks.left > 0) {
    spend();
    looks.left--;
    const el = stack.pop()!;
    const s = stats.of(el);
    if (s.text < LEAD_MIN || SILENT.has(el.name) || stats.hidden.has(el)) continue;
    // A block named as a lead but shaped as a header (a "page-intro" holding the headline,
    // byline and lead) is looked into: the lead is one of its parts.
    if (
      namesSay(el, LEAD_NAMES) && el.name !== "h1" && s.text <= LEAD_MAX &&
      linkDensity(s) < 0.3 && !holdsHeading(el, s)
    ) {
      return el;
    }
    // A line (no block inside) of a lead's length that shows the stated description.
    if (
      descriptions.length && !s.hasBlock && el.name !== "h1" && s.text <= LEAD_MAX &&
      linkDensity(s) < 0.3 && showsDescription(stats.textOf(el), descriptions)
    ) {
      return el;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (c.type === "tag") stack.push(c as Element);
    }
  }
  return null;
}

/** Whether a block holds a heading below it: a story's header (title, kicker), not its lead. */
function holdsHeading(el: Element, s: Stats): boolean {
  return !HEADING_TAGS.has(el.name) && s.headingText > 0;
}
