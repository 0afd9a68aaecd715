/**
 * The titles a page states for itself (<title>, og:title, twitter:title) and whether a heading
 * in the content only repeats one. Readability drops such a heading (_headerDuplicatesTitle):
 * the title is the page's, not a line of its body, and the Markdown view writes it first anyway.
 */
import type { AnyNode, Element } from "domhandler";
import { attr, select, textOf } from "../dom/mod.ts";

/** Word tokens, lowercased, letters and digits of any script. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The word sets of the page's stated titles, read once per document. */
const TITLES = new WeakMap<AnyNode, Set<string>[]>();

/** The stated titles of the document `el` belongs to. */
export function pageTitles(el: Element): Set<string>[] {
  let top: AnyNode = el;
  while (top.parent) top = top.parent;
  let titles = TITLES.get(top);
  if (titles) return titles;
  titles = [];
  const head = select(top, "head");
  if (head) {
    const title = select(head, "title");
    const texts = [title ? textOf(title) : ""];
    for (const name of ["og:title", "twitter:title"]) {
      const meta = select(head, `meta[property="${name}"], meta[name="${name}"]`);
      texts.push(meta ? attr(meta, "content") ?? "" : "");
    }
    for (const text of texts) {
      const set = new Set(words(text));
      if (set.size) titles.push(set);
    }
  }
  TITLES.set(top, titles);
  return titles;
}

/** At least this share of a heading's words in a title makes it a repeat (Readability: 0.75). */
const SIMILAR = 0.75;

/**
 * Whether heading text `text` repeats one of `titles`: nearly all its words are the title's,
 * and it is most of the title (a section heading naming the site is no repeat of the story).
 */
export function repeatsTitle(text: string, titles: Set<string>[]): boolean {
  const own = words(text);
  if (own.length < 2) return false;
  for (const title of titles) {
    let shared = 0;
    for (const word of own) if (title.has(word)) shared++;
    if (shared >= own.length * SIMILAR && shared >= title.size * 0.5) return true;
  }
  return false;
}
