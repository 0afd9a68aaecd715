/**
 * A listing's entries: the rows of a ranked table, the items of a list of books, the cards of a
 * feed. Each is one of several siblings built alike (one tag and one class), each holding a
 * small share of their parent's text. Inside an entry, a line naming an author or a date is
 * the entry's own ("by Jane Austen"), not the chrome around one story.
 */
import { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import type { PageStats } from "./stats.ts";

/** Fewest siblings built alike that make a run of entries. */
const MIN_ENTRIES = 3;
/** Most of its parent's text one entry holds: past it, the sibling is the page's body. */
const ENTRY_SHARE = 0.5;

/** Per parent, how many children with text carry each tag and class. */
const SHAPES = new WeakMap<Element, Map<string, number>>();
/** Per element, whether it is or lies in an entry below one root: asking stays linear. */
export type EntryCache = Map<Element, boolean>;

/**
 * Whether `el` is an entry of a listing or lies inside one, below `root` (the chosen content:
 * a post chosen among its siblings is the content, not an entry). Ancestors are read once.
 */
export function inEntry(
  el: Element,
  root: Element,
  stats: PageStats,
  cache: EntryCache,
): boolean {
  const path: Element[] = [];
  let answer = false;
  for (let at: Element = el; at !== root; at = at.parent as Element) {
    spend();
    const known = cache.get(at);
    if (known !== undefined) {
      answer = known;
      break;
    }
    if (!(at.parent instanceof Element)) break;
    path.push(at);
  }
  // Filled from the top down: an element is in an entry when it is one or its parent is in one.
  for (let i = path.length - 1; i >= 0; i--) {
    const at = path[i]!;
    answer = answer || isEntry(at, at.parent as Element, stats);
    cache.set(at, answer);
  }
  return answer;
}

function isEntry(el: Element, parent: Element, stats: PageStats): boolean {
  const s = stats.of(el);
  if (s.text === 0 || s.text > stats.of(parent).text * ENTRY_SHARE) return false;
  return (shapesOf(parent, stats).get(shapeOf(el)) ?? 0) >= MIN_ENTRIES;
}

function shapeOf(el: Element): string {
  return `${el.name}.${el.attribs.class ?? ""}`;
}

function shapesOf(parent: Element, stats: PageStats): Map<string, number> {
  let shapes = SHAPES.get(parent);
  if (shapes) return shapes;
  shapes = new Map();
  for (const child of parent.children) {
    spend();
    if (!(child instanceof Element) || stats.of(child).text === 0) continue;
    const shape = shapeOf(child);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  SHAPES.set(parent, shapes);
  return shapes;
}
