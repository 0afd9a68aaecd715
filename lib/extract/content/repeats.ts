/**
 * Quotations of the content's own words: a forum reply quoting an earlier post of the thread
 * in full. The reader has read those words already, above; the quote goes, and with it the
 * quotation's attribution ("Jane said:") when the repeats are most of it.
 */
import type { Element } from "domhandler";
import { walkElements } from "../dom/mod.ts";
import { BLOCKS, type PageStats } from "./stats.ts";

/** Shorter lines may well repeat in a text ("Yes.", "Thanks!", "Step 1"). */
const REPEAT_MIN = 60;
/** Where repeated lines are the text's own: code and tables. */
const OWN_REPEATS = new Set(["pre", "code", "table"]);

/**
 * The quotations under `roots` (or their lines) that repeat, word for word, lines of REPEAT_MIN
 * characters or more met earlier in the content. One walk over the roots' blocks.
 */
export function repeatedQuotes(roots: readonly Element[], stats: PageStats): Set<Element> {
  if (!stats.quotes) return new Set();
  const seen = new Set<string>();
  /** Per quotation, the repeated lines in it and their text. */
  const quotes = new Map<Element, { lines: Element[]; text: number }>();
  for (const root of roots) {
    walkElements(root, (el) => {
      if (OWN_REPEATS.has(el.name)) return false;
      const s = stats.of(el);
      if (s.text < REPEAT_MIN) return false;
      if (s.hasBlock || !BLOCKS.has(el.name)) return true;
      const text = stats.textOf(el);
      const quote = seen.has(text) ? quotationOf(el, root) : null;
      if (!quote) {
        seen.add(text);
        return false;
      }
      const found = quotes.get(quote) ?? { lines: [], text: 0 };
      found.lines.push(el);
      found.text += s.text;
      quotes.set(quote, found);
      return false;
    });
  }
  const drop = new Set<Element>();
  for (const [quote, found] of quotes) {
    // Mostly repeats (the rest its attribution, short lines of the quoted post): it all goes.
    if (found.text * 2 >= stats.of(quote).text) drop.add(quote);
    else for (const line of found.lines) drop.add(line);
  }
  return drop;
}

/** The quotation (`<blockquote>`) `el` is in, under `root`, or null. */
function quotationOf(el: Element, root: Element): Element | null {
  for (let up: Element | null = el; up; up = up.parent as Element | null) {
    if (up.name === "blockquote") return up;
    if (up === root) break;
  }
  return null;
}
