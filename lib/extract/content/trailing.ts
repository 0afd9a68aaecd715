/**
 * A heading left last in the content, with nothing under it: the title of a section the
 * pruning took away ("Related stories", "Keine Lust alleine zu radeln?" above a booking
 * widget), or of a widget the page fills by script. It titles nothing a reader gets.
 */
import type { ChildNode, Element } from "domhandler";
import { HEADING_TAGS } from "../dom/mod.ts";
import type { PageStats } from "./stats.ts";

/** Longest heading read as a title: a longer one is a paragraph set large (a disclaimer). */
const TITLE_MAX = 100;
/** Deepest nesting read down from the content's end. */
const MAX_DEPTH = 64;

/**
 * The heading that ends `root`'s content, if one does and it is not all of it, else null. Reads
 * down the last children only, from the sizes the page was measured with.
 */
export function trailingHeading(root: Element, stats: PageStats): Element | null {
  let at: Element = root;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const last = lastShown(at, stats);
    if (!last || last.type !== "tag") return null;
    const el = last as Element;
    if (HEADING_TAGS.has(el.name)) {
      return (at === root && !el.prev) || stats.of(el).text > TITLE_MAX ? null : el;
    }
    at = el;
  }
  return null;
}

/**
 * The last child of `el` a reader sees: text with words, or an element holding text or an
 * image (an emptied block, a script's placeholder, is passed over).
 */
function lastShown(el: Element, stats: PageStats): ChildNode | null {
  for (let at = el.lastChild; at; at = at.prev) {
    if (at.type === "tag") {
      const s = stats.of(at as Element);
      if (s.text > 0 || s.images > 0) return at;
    } else if (at.type === "text" && (at as unknown as { data: string }).data.trim()) return at;
  }
  return null;
}
