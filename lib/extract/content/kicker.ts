/**
 * A story's kicker: the short label a news page sets right above its headline, naming the
 * story's section or series ("Politics", "Opinion", "Analysis"), often a link to that section.
 * No benchmark's body holds it, and a reader of the text has the headline without it.
 */
import type { Element } from "domhandler";
import { elementFrom } from "../dom/mod.ts";
import type { PageStats, Stats } from "./stats.ts";

/** Longest text read as a kicker, and most words. */
const KICKER_MAX = 40;
const KICKER_WORDS = 4;

/**
 * Whether `el` (with figures `s`) is a kicker: a short line holding no block and no heading,
 * whose next sibling with anything in it is the story's <h1>. Reads the siblings up to it.
 */
export function isKicker(el: Element, s: Stats, stats: PageStats): boolean {
  if (s.text === 0 || s.text > KICKER_MAX || s.hasBlock || s.headingText > 0) return false;
  if (elementFrom(el.next)?.name !== "h1") return false;
  // The words are read last, for the few lines right above a headline.
  return stats.textOf(el).split(/\s+/).filter(Boolean).length <= KICKER_WORDS;
}
