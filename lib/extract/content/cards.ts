/**
 * A listing's or a collection's item card: one of several sibling blocks marked alike (one
 * class), each headed by the item's name over its blurb. On a page that is no story they are
 * what a reader came for, whatever the counts that find a story's chrome say of each (a link in
 * its heading, a picture, no paragraph).
 */
import { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import type { PageStats, Stats } from "./stats.ts";

/** Fewest siblings marked alike that make a run of cards. */
const MIN_CARDS = 3;
/** Most of a card's text in links: past it, a card is a link with a label. */
const MAX_LINKS = 0.6;
/** Fewest pictured cards of one class that make a run (a row of two). */
const PAIR = 2;

/** A parent's children by class value, read once per parent. */
interface Runs {
  /** How many children carry each class value. */
  counts: Map<string, number>;
  /** Class values that two or more pictured, headed children, not mostly links, carry. */
  paired: Set<string>;
}

/** Per parent, its runs: asking from each card stays linear. */
const RUNS = new WeakMap<Element, Runs>();

/**
 * Whether `el` is an item card (one of a run of siblings alike) or the run's container, headed
 * and not mostly links. A run of two counts when both are pictured cards: two siblings of one
 * class are common layout (two columns), so a pair counts only when each is a card on its own.
 */
export function isItemCard(el: Element, stats: PageStats): boolean {
  const s = stats.of(el);
  if (!isCardLike(s, false)) return false;
  const className = el.attribs.class;
  const parent = el.parent;
  if (className && parent instanceof Element) {
    const siblings = runsOf(parent, stats);
    if ((siblings.counts.get(className) ?? 0) >= MIN_CARDS) return true;
    if (s.images > 0 && siblings.paired.has(className)) return true;
  }
  const own = runsOf(el, stats);
  for (const count of own.counts.values()) if (count >= MIN_CARDS) return true;
  return own.paired.size > 0;
}

/** Headed and not mostly links; with `pictured`, holding an image too. */
function isCardLike(s: Stats, pictured: boolean): boolean {
  return s.headingText > 0 && s.linkText <= s.text * MAX_LINKS && (!pictured || s.images > 0);
}

function runsOf(parent: Element, stats: PageStats): Runs {
  let runs = RUNS.get(parent);
  if (runs) return runs;
  runs = { counts: new Map(), paired: new Set() };
  const pictured = new Map<string, number>();
  for (const child of parent.children) {
    spend();
    const className = child instanceof Element ? child.attribs.class : undefined;
    if (!className) continue;
    runs.counts.set(className, (runs.counts.get(className) ?? 0) + 1);
    if (!isCardLike(stats.of(child as Element), true)) continue;
    const n = (pictured.get(className) ?? 0) + 1;
    if (n >= PAIR) runs.paired.add(className);
    pictured.set(className, n);
  }
  RUNS.set(parent, runs);
  return runs;
}
