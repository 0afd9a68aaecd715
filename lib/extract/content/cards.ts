/**
 * A listing's or a collection's item card: one of several sibling blocks marked alike (one
 * class), each headed by the item's name over its blurb. On a page that is no story they are
 * what a reader came for, whatever the counts that find a story's chrome say of each (a link in
 * its heading, a picture, no paragraph).
 */
import { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import type { PageStats } from "./stats.ts";

/** Fewest siblings marked alike that make a run of cards. */
const MIN_CARDS = 3;
/** Most of a card's text in links: past it, a card is a link with a label. */
const MAX_LINKS = 0.6;

/** How many children of each parent carry each class value, counted once per parent. */
const CLASS_COUNTS = new WeakMap<Element, Map<string, number>>();

/**
 * Whether `el` is an item card (one of a run of siblings alike) or the run's container, headed
 * and not mostly links. A run of two counts when both are pictured cards (`pairedClasses`).
 */
export function isItemCard(el: Element, stats: PageStats): boolean {
  const s = stats.of(el);
  if (s.headingText === 0 || s.linkText > s.text * MAX_LINKS) return false;
  const className = el.attribs.class;
  const parent = el.parent;
  if (className && parent instanceof Element) {
    if ((classCounts(parent).get(className) ?? 0) >= MIN_CARDS) return true;
    if (s.images > 0 && pairedClasses(parent, stats).has(className)) return true;
  }
  for (const count of classCounts(el).values()) if (count >= MIN_CARDS) return true;
  return pairedClasses(el, stats).size > 0;
}

/** A pair of siblings marked alike, each headed, pictured and not mostly links. */
const PAIR = 2;

/** Per parent, the classes that two or more of its pictured, headed children carry. */
const PAIRED = new WeakMap<Element, Set<string>>();

/**
 * Cards laid out in rows of two: two siblings of one class are common layout (two columns),
 * so a pair counts only when each is a card on its own, headed and with a picture. Read once
 * per parent, so that asking from each card stays linear.
 */
function pairedClasses(parent: Element, stats: PageStats): Set<string> {
  let paired = PAIRED.get(parent);
  if (paired) return paired;
  paired = new Set();
  const counts = new Map<string, number>();
  for (const child of parent.children) {
    spend();
    const className = child instanceof Element ? child.attribs.class : undefined;
    if (!className) continue;
    const s = stats.of(child as Element);
    if (s.headingText === 0 || s.images === 0 || s.linkText > s.text * MAX_LINKS) continue;
    const n = (counts.get(className) ?? 0) + 1;
    if (n >= PAIR) paired.add(className);
    counts.set(className, n);
  }
  PAIRED.set(parent, paired);
  return paired;
}

function classCounts(parent: Element): Map<string, number> {
  let counts = CLASS_COUNTS.get(parent);
  if (counts) return counts;
  counts = new Map();
  for (const child of parent.children) {
    spend();
    if (!(child instanceof Element)) continue;
    const className = child.attribs.class;
    if (className) counts.set(className, (counts.get(className) ?? 0) + 1);
  }
  CLASS_COUNTS.set(parent, counts);
  return counts;
}
