/**
 * From scores to the content: the top candidate, moved up to a common ancestor when several
 * near-top candidates share one (an article split in sections), then joined with its siblings
 * that score near it or read as paragraphs of their own (Readability's sibling joining).
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { textOfInline } from "./score.ts";
import { parentElement, type Scores } from "./score.ts";
import { linkDensity, type PageStats } from "./stats.ts";
import { commonAncestor } from "./structure.ts";

const TOP_CANDIDATES = 5;
const MIN_SHARING = 3;

export function topCandidate(scores: Scores, body: Element): Element | null {
  const ranked = topScores(scores, TOP_CANDIDATES);
  const best = ranked[0];
  if (!best || best[1] <= 0) return null;
  let [top, topScore] = best;
  // Several near-top candidates under one ancestor: the ancestor is the article.
  const near = ranked.slice(1, TOP_CANDIDATES).filter(([, s]) => s >= topScore * 0.75)
    .map(([el]) => el);
  if (near.length >= MIN_SHARING) {
    // How many near-top candidates each ancestor holds: one walk up from each.
    const holds = new Map<Element, number>();
    for (const el of near) {
      for (let up = parentElement(el); up && up !== body; up = parentElement(up)) {
        spend();
        holds.set(up, (holds.get(up) ?? 0) + 1);
      }
    }
    for (
      let parent = parentElement(top);
      parent && parent !== body;
      parent = parentElement(parent)
    ) {
      spend();
      if ((holds.get(parent) ?? 0) >= MIN_SHARING) {
        top = parent;
        break;
      }
    }
  }
  top = partsAncestor(top, topScore, ranked, body) ?? top;
  topScore = scores.get(top) ?? topScore;
  // A parent that scores more than the child holds more of the article.
  let last = topScore;
  for (let parent = parentElement(top); parent && parent !== body; parent = parentElement(parent)) {
    spend();
    const score = scores.get(parent);
    if (score === undefined) continue;
    if (score < last / 3) break;
    if (score > last) {
      top = parent;
      break;
    }
    last = score;
  }
  // The only child of its parent: the parent holds just as much and reads better as a whole.
  for (let parent = parentElement(top); parent && parent !== body; parent = parentElement(parent)) {
    spend();
    if (parent.children.filter((c) => c.type === "tag").length !== 1) break;
    top = parent;
  }
  return top;
}

/** Least share of the top score another part of the same article scores. */
const PART_SHARE = 0.5;

/**
 * An article the page splits into parts marked alike (sections with the top candidate's
 * class, or each `itemprop=articleBody`) in containers of their own, between which the page
 * puts share bars or ads: the nearest ancestor holding the top candidate and the other parts
 * among the best scored, or null when none is.
 */
function partsAncestor(
  top: Element,
  topScore: number,
  ranked: [Element, number][],
  body: Element,
): Element | null {
  const parts = ranked.filter(([el, score]) =>
    el !== top && score >= topScore * PART_SHARE && markedAlike(el, top)
  ).map(([el]) => el);
  if (!parts.length) return null;
  return commonAncestor(top, parts, body);
}

function markedAlike(el: Element, top: Element): boolean {
  if (el.name !== top.name) return false;
  const cls = top.attribs.class;
  if (cls && cls.trim() && el.attribs.class === cls) return true;
  return el.attribs.itemprop === "articleBody" && top.attribs.itemprop === "articleBody";
}

/**
 * The `count` best scores, best first, the earlier scored first among equals (as a stable sort
 * of them all would rank them), in one pass that sorts nothing.
 */
function topScores(scores: Scores, count: number): [Element, number][] {
  const top: [Element, number][] = [];
  for (const entry of scores) {
    spend();
    const score = entry[1];
    if (top.length === count && !(score > top[count - 1]![1])) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]![1] < score) at--;
    top.splice(at, 0, entry);
    if (top.length > count) top.pop();
  }
  return top;
}

/** The top candidate and the siblings that belong with it, in document order. */
export function withSiblings(top: Element, scores: Scores, stats: PageStats): Element[] {
  const parent = parentElement(top);
  if (!parent) return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const out: Element[] = [];
  for (const sibling of parent.children) {
    spend();
    if (sibling.type !== "tag") continue;
    const el = sibling as Element;
    if (el === top) {
      out.push(el);
      continue;
    }
    if (stats.hidden.has(el)) continue;
    let bonus = 0;
    if (top.attribs.class && el.attribs.class === top.attribs.class) bonus += topScore * 0.2;
    const score = scores.get(el);
    if (score !== undefined && score + bonus >= threshold) {
      out.push(el);
      continue;
    }
    if (el.name === "p" || (LINE_WRAPPERS.has(el.name) && !stats.of(el).hasBlock)) {
      const s = stats.of(el);
      const density = linkDensity(s);
      if (s.text > 80 && density < 0.25) out.push(el);
      else if (
        s.text > 0 && s.text <= 80 && density === 0 && /\.( |$)/.test(textOfInline(el.children))
      ) {
        out.push(el);
      }
    }
  }
  return out;
}

/**
 * Elements read as a paragraph beside the content when they hold no block: a <div> of text,
 * and the inline wrappers old pages set a paragraph in (`<font>`, `<span>`, `<b>`).
 */
const LINE_WRAPPERS = new Set(["div", "font", "span", "b", "strong", "i", "em"]);

/** Share of a parent's text the joined parts hold for the parent to be the content. */
const COVER = 0.8;
/** Most link density of what the parent holds beside the parts (not a list of links). */
const LEFT_LINKS = 0.5;

/**
 * Parts of one whole: when the top candidate and the siblings joined to it hold nearly all of
 * their parent's text, the parent is the content. What else it holds is what sits between the
 * parts: the headings, short paragraphs and lists that sibling joining passes over (a
 * documentation page's sections and their intro), unless it is mostly links (teasers, a
 * newsletter box with its links, share tools); its chrome is pruned as the parts' is.
 */
export function wholeOfParts(roots: Element[], stats: PageStats, body: Element): Element[] {
  if (roots.length < 2) return roots;
  const whole = parentElement(roots[0]!);
  if (!whole || whole === body) return roots;
  let text = 0;
  let links = 0;
  for (const root of roots) {
    text += stats.of(root).text;
    links += stats.of(root).linkText;
  }
  const all = stats.of(whole);
  if (text < all.text * COVER) return roots;
  // What is left between the parts is read: headings and lists of the text, not link lists.
  const left = all.text - text;
  return all.linkText - links <= left * LEFT_LINKS ? [whole] : roots;
}
