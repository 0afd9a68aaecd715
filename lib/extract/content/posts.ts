/**
 * A forum thread's other posts. The scores choose one post's body (the first post, or the
 * longest); the replies are often in a subtree apart from it (the first post in one list, the
 * replies in another), where sibling joining never reaches them. Each reply's body is marked
 * as the chosen one is: the same tag and class, under a parent of the same tag and class. Those
 * bodies are joined to the content, in the page's order; the posters' details, signatures and
 * buttons beside them are not (they are outside the bodies).
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { walkElements } from "../dom/mod.ts";
import { parentElement } from "./score.ts";
import { linkDensity, type PageStats, SILENT } from "./stats.ts";

/** Page furniture that holds no post of the thread, whatever it repeats. */
const FURNITURE = new Set(["nav", "aside", "footer", "header", "form"]);
/** A teaser's excerpt ends on an ellipsis (a listing's card, not a post). */
const CUT_OFF = /(?:…|\.\.\.)\]?\s*$/;
/** A body mostly of links is a list of threads or a signature, not a post. */
const MAX_LINK_DENSITY = 0.5;

/**
 * `roots` (the chosen content: `top` and its joined siblings) with the bodies of the other
 * posts marked as `top` is, in document order; `roots` itself when there are none. One walk
 * over the page's elements holding text, comparing tag and class strings.
 */
export function withPosts(
  roots: Element[],
  top: Element,
  body: Element,
  stats: PageStats,
): Element[] {
  const cls = top.attribs.class;
  const parent = parentElement(top);
  if (!cls?.trim() || !parent || parent === body || !parent.attribs.class?.trim()) return roots;
  // Blocks marked alike beside the chosen one are joined already: the repetition is local
  // (sections of one article, a list's items), not a thread's.
  if (roots.some((root) => root !== top && root.attribs.class === cls)) return roots;
  const above = new Set<Element>();
  for (let up: Element | null = parent; up && up !== body; up = parentElement(up)) {
    spend();
    above.add(up);
  }
  const chosen = new Set(roots);
  const alike = parentsAlike(parent);
  const out: Element[] = [];
  let posts = 0;
  walkElements(body, (el) => {
    if (chosen.has(el)) {
      out.push(el);
      return false;
    }
    const s = stats.of(el);
    if (s.text === 0 || SILENT.has(el.name) || FURNITURE.has(el.name)) return false;
    if (stats.hidden.has(el)) return false;
    if (
      el.name === top.name && el.attribs.class === cls && !above.has(el) &&
      alike(parentElement(el)) && linkDensity(s) < MAX_LINK_DENSITY &&
      !CUT_OFF.test(stats.textOf(el))
    ) {
      out.push(el);
      posts++;
      return false;
    }
    return true;
  });
  // The roots are where the walk found them, in order; a root under skipped furniture is not.
  return posts && out.length === roots.length + posts ? out : roots;
}

/**
 * The test "shares a class word with `like`" ("Item ItemDiscussion" and "Item ItemComment": the
 * first post and the replies are often items of different lists, a <div> and <li>s), each
 * parent's class read once however many bodies it holds.
 */
function parentsAlike(like: Element): (el: Element | null) => boolean {
  const words = new Set(classWords(like));
  const said = new Map<Element, boolean>();
  return (el) => {
    if (el === null) return false;
    let alike = said.get(el);
    if (alike === undefined) {
      alike = el.attribs.class === like.attribs.class ||
        classWords(el).some((word) => words.has(word));
      said.set(el, alike);
    }
    return alike;
  };
}

const classWords = (el: Element) => (el.attribs.class ?? "").split(/\s+/).filter(Boolean);
