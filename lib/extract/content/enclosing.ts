/**
 * The article a page builder splits into rows: the scores choose the longest row's inner
 * wrapper (WPBakery's `vc_row > … > wpb_wrapper`, a CMS's section blocks), and sibling joining
 * only reaches the wrapper's siblings, not the rows before and after it, some levels up. The
 * content is widened to an ancestor while what the ancestor adds is more of the same prose:
 * paragraphs with few links, not more than the content already holds.
 */
import { type Element, isTag } from "domhandler";
import { spend } from "../dom/budget.ts";
import { anchoredSection } from "./anchors.ts";
import { classWeight, isUnlikely } from "./classes.ts";
import { parentElement } from "./score.ts";
import type { PageStats } from "./stats.ts";

/** Levels climbed at most: a builder's row is a few wrappers above its text. */
const LEVELS = 8;
/** Most link density of what an ancestor adds. */
const ADDED_LINKS = 0.1;
/** Most an ancestor adds, as a share of what the content holds: more is another page part. */
const ADDED_SHARE = 1;
/** Fewest paragraphs an ancestor adds to be more of the prose (not a header, a caption). */
const ADDED_PARAGRAPHS = 2;
/** Fewest characters an ancestor adds to be judged by them. */
const ADDED_MIN = 25;
/**
 * Share of the content under which the pruning drops a block named as chrome (its "small"): a
 * larger one would stay.
 */
const PRUNED_SHARE = 0.3;
/** Page furniture by tag: never climbed into. */
const FURNITURE = new Set(["aside", "nav", "footer", "header", "form"]);

/**
 * `roots` (siblings, in order), or the highest ancestor of theirs within LEVELS whose text
 * beside theirs is prose: paragraphs, few links, no more than theirs. Each level reads its
 * counts and one pass over its children: at most LEVELS passes.
 */
export function enclosingArticle(roots: Element[], stats: PageStats, body: Element): Element[] {
  // A sidebar chosen in a pass that ignores names is not widened into the page around it.
  if (!roots.length || roots.some((root) => isFurniture(root, stats))) return roots;
  let text = 0;
  let links = 0;
  let paragraphs = 0;
  let inputs = 0;
  for (const root of roots) {
    const s = stats.of(root);
    text += s.text;
    links += s.linkText;
    paragraphs += s.paragraphs;
    inputs += s.inputs;
  }
  let best: Element | null = null;
  let from: Element = roots[0]!;
  let up = parentElement(from);
  for (
    let level = 0;
    up && up !== body && level < LEVELS;
    level++, from = up, up = parentElement(up)
  ) {
    spend();
    if (isFurniture(up, stats) || stats.hidden.has(up) || holdsFurniture(up, from, stats)) break;
    const s = stats.of(up);
    const added = s.text - text;
    // A wrapper's own spaces, a kicker: too little to say what the ancestor is.
    if (added < ADDED_MIN) continue;
    if (added > text * ADDED_SHARE || s.linkText - links > added * ADDED_LINKS) break;
    if (s.paragraphs - paragraphs < ADDED_PARAGRAPHS) break;
    // Fields to fill (a comment box, a sign-up form) come with a thread or an appeal, not rows.
    if (s.inputs > inputs) break;
    best = up;
    text = s.text;
    links = s.linkText;
    paragraphs = s.paragraphs;
  }
  return best ? [best] : roots;
}

/** Named as chrome: unlikely (a sidebar, comments), or weighted down (a `commentlist`). */
function namedChrome(el: Element): boolean {
  return isUnlikely(el) || classWeight(el) < 0;
}

function isFurniture(el: Element, stats: PageStats): boolean {
  return FURNITURE.has(el.name) || (isUnlikely(el) && stats.of(el).text > 0);
}

/**
 * Whether `el` holds page furniture beside `from`, the child the climb came up through: a header
 * or a sidebar by tag, or a block named as chrome too large for the pruning to drop (a comment
 * thread): then it is a region of the page, not the article's rows. Smaller chrome named so (a
 * related-posts box, share tools) sits in articles too, and is pruned with the rest; so is a
 * document's anchored section. One pass over its children.
 */
function holdsFurniture(el: Element, from: Element, stats: PageStats): boolean {
  const large = stats.of(el).text * PRUNED_SHARE;
  for (const child of el.children) {
    spend();
    if (child === from || !isTag(child)) continue;
    const text = stats.of(child).text;
    if (text === 0) continue;
    if (FURNITURE.has(child.name)) return true;
    if (text >= large && namedChrome(child) && !anchoredSection(child, stats)) return true;
  }
  return false;
}
