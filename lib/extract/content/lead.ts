/**
 * The article's lead (standfirst, deck, subtitle): the paragraph a news page sets under the
 * headline, in the story's header rather than its body. The scores choose the body; the lead,
 * named as such and just before it, belongs to the story too (trafilatura keeps it).
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { namesSay, type NamesTest } from "./classes.ts";
import { parentElement } from "./score.ts";
import { linkDensity, type PageStats, SILENT } from "./stats.ts";

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

/** How far up from the content the story's header is looked for. */
const LEVELS = 4;
/** A header holding more than this is a page's part, not a story's header. */
const HEADER_MAX = 3000;
/** A lead's length: a sentence or a short paragraph. */
const LEAD_MIN = 40;
const LEAD_MAX = 800;
/** Elements looked at in all, at most: the lead sits close to the body or is not there. */
const LOOKS = 200;

/**
 * The lead just before `first` (the content's first root): in an element before it, under one
 * of its first few ancestors, a block named as a lead, of a paragraph's length and mostly no
 * link. Null when there is none or it is already in the content.
 */
export function leadBefore(first: Element, stats: PageStats, body: Element): Element | null {
  const looks = { left: LOOKS };
  let child = first;
  for (
    let up = parentElement(first), level = 0;
    up && up !== body && level < LEVELS;
    child = up, up = parentElement(up), level++
  ) {
    for (let sib = child.prev; sib && looks.left > 0; sib = sib.prev) {
      spend();
      looks.left--;
      if (sib.type !== "tag") continue;
      const el = sib as Element;
      if (SILENT.has(el.name) || stats.hidden.has(el)) continue;
      if (stats.of(el).text > HEADER_MAX) return null;
      const lead = namedLead(el, stats, looks);
      if (lead) return lead;
    }
  }
  return null;
}

/** The first element in `root` (itself included) named as a lead and shaped as one. */
function namedLead(root: Element, stats: PageStats, looks: { left: number }): Element | null {
  const stack: Element[] = [root];
  while (stack.length && looks.left > 0) {
    spend();
    looks.left--;
    const el = stack.pop()!;
    const s = stats.of(el);
    if (s.text < LEAD_MIN || SILENT.has(el.name) || stats.hidden.has(el)) continue;
    if (namesSay(el, LEAD_NAMES) && el.name !== "h1") {
      if (s.text <= LEAD_MAX && linkDensity(s) < 0.3) return el;
      continue;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i]!;
      if (c.type === "tag") stack.push(c as Element);
    }
  }
  return null;
}
