/**
 * A section of a document known by an anchor id (`<section id="s-select-related">`, `<div
 * class="refsect2" id="SQL-FOR-UPDATE-SHARE">`, as documentation generators write them): the id
 * is made of its subject's words for links to it, and words in it that name chrome elsewhere
 * ("related", "share") say nothing of its role. Only its class and role do.
 */
import { Element } from "domhandler";
import { HEADING_TAGS } from "../dom/mod.ts";
import { isUnlikelyByClass } from "./classes.ts";
import type { PageStats } from "./stats.ts";

/** How many of a section's first children are looked at for its heading. */
const HEAD_CHILDREN = 3;
/** A class token naming a document's section: `section`, `sect1`, `refsect2`. */
const SECTION_CLASS = /(?:^|\s)(?:ref)?sect(?:ion)?\d*(?:\s|$)/i;

/**
 * Whether `el`, judged unlikely by its names, is a document's headed section that only its id
 * names so. Read only of elements already judged unlikely: a constant-time look at a few
 * children and a second judgement of its class and role alone.
 */
export function anchoredSection(el: Element, stats: PageStats): boolean {
  const { id, class: className } = el.attribs;
  if (!id || (el.name !== "section" && !SECTION_CLASS.test(className ?? ""))) return false;
  if (stats.of(el).headingText === 0 || !opensWithHeading(el)) return false;
  return !isUnlikelyByClass(el);
}

/** Longest heading whose id is read against its words. */
const ANCHORED_HEADING_MAX = 200;
/** Words of an id that need not be the heading's: a generator's prefix (`h-`, `toc-`). */
const ID_EXTRA_WORDS = 1;

/**
 * Whether `el` is a heading whose id is an anchor made of its own words (`<h2
 * id="h-why-use-social-shopping">Why Use Social Shopping?</h2>`, as editors and documentation
 * generators write them): words in it that name chrome elsewhere ("social", "related") say
 * nothing of its role, which only its class and role tell. Bounded: a short heading's words.
 */
export function anchoredHeading(el: Element, stats: PageStats): boolean {
  const id = el.attribs.id;
  if (!id || !HEADING_TAGS.has(el.name)) return false;
  const text = stats.textOf(el);
  if (text.length > ANCHORED_HEADING_MAX) return false;
  const own = new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  let shared = 0;
  let extra = 0;
  for (const word of id.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (own.has(word)) shared++;
    else if (++extra > ID_EXTRA_WORDS) return false;
  }
  return shared >= 2 && !isUnlikelyByClass(el);
}

/** Whether a heading is among `el`'s first element children. */
function opensWithHeading(el: Element): boolean {
  let seen = 0;
  for (const child of el.children) {
    if (!(child instanceof Element)) continue;
    if (HEADING_TAGS.has(child.name)) return true;
    if (++seen >= HEAD_CHILDREN) break;
  }
  return false;
}
