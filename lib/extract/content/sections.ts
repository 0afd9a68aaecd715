/**
 * A landing page (a service's, a product line's) is a column of headed sections, each a few
 * lines of its own: the reader came for all of them. One of them (an FAQ, a long feature) can
 * outweigh the rest in the scores without being the page's content alone.
 */
import { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import type { PageStats } from "./stats.ts";

/** Fewest headed sections that make a page a column of them. */
const SECTIONS = 5;
/** Least text outside links of a section (a heading over a few lines). */
const SECTION_TEXT = 150;
/** How deep wrappers holding one child each are looked through. */
const MAX_WRAPPERS = 8;

/** Whether `region`'s top level (under wrappers of one child) holds enough headed sections. */
export function isSectionedPage(region: Element, stats: PageStats): boolean {
  let level = region;
  for (let depth = 0; depth < MAX_WRAPPERS; depth++) {
    const only = onlyChildWithText(level, stats);
    if (!only) break;
    level = only;
  }
  let sections = 0;
  for (const child of level.children) {
    spend();
    if (!(child instanceof Element)) continue;
    const s = stats.of(child);
    if (s.headingText > 0 && s.text - s.linkText > SECTION_TEXT && ++sections >= SECTIONS) {
      return true;
    }
  }
  return false;
}

/** `el`'s one child element holding text, or null when it has none or several. */
function onlyChildWithText(el: Element, stats: PageStats): Element | null {
  let only: Element | null = null;
  for (const child of el.children) {
    spend();
    if (!(child instanceof Element) || stats.of(child).text === 0) continue;
    if (only) return null;
    only = child;
  }
  return only;
}
