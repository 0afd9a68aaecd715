/**
 * The page's main content: the container Readability-style scoring picks (with class weights
 * read per token and text in <div>s with <br>s counted), joined with its siblings, with the
 * chrome inside it removed. When the strictest pass keeps too little (a page whose wrappers are
 * named like chrome, or that is a listing rather than an article), passes that trust names and
 * counts less are tried, as Readability does, and the one keeping most text wins.
 *
 * The DOM is changed: dropped chrome is removed and joined siblings are moved into one
 * wrapper. Callers run every other reader of the DOM first.
 */
import { type AnyNode, type ChildNode, type Document, Element, type ParentNode } from "domhandler";
import { spend } from "../dom/budget.ts";
import { compileSelector, rawText, select, selectAll, walkElements } from "../dom/mod.ts";
import { chromeWithin } from "./prune.ts";
import { classWeight, isUnlikely } from "./classes.ts";
import { type Flags, scoreCandidates, type Scores, type Scoring } from "./score.ts";
import { topCandidate, wholeOfParts, withSiblings } from "./select.ts";
import { measure, type PageStats } from "./stats.ts";
import { statedBody, statedContainer, statedInstead } from "./structure.ts";
import { describedBlock, reviewBlocks, statedProduct } from "./product.ts";
import { parentElement } from "./score.ts";
import { leadBefore, statedDescriptions } from "./lead.ts";
import { withPosts } from "./posts.ts";
import { isSectionedPage } from "./sections.ts";
import { repeatedQuotes } from "./repeats.ts";
import { trailingHeading } from "./trailing.ts";
import { pageTitles, repeatsTitle } from "./headline.ts";
import { enclosingArticle } from "./enclosing.ts";

interface ProductReading {
  /** The block showing the stated description, and the container to anchor on. */
  block: Element | null;
  anchor: Element | null;
  reviews: Element[];
}

/**
 * On a page stating a schema.org product: the block showing its stated description with the
 * container to anchor on, and the reviews blocks, hidden from the scores and left out.
 */
function readProduct(body: Element, stats: PageStats, jsonLd: Element[]): ProductReading | null {
  const product = statedProduct(jsonLd);
  if (!product) return null;
  const block = product.description ? describedBlock(body, stats, product.description) : null;
  const reviews = reviewBlocks(body, stats, block);
  for (const el of reviews) stats.hidden.add(el);
  return { block, anchor: block && parentElement(block), reviews };
}

/**
 * A converted document (PDF, Office, EPUB: documentHtml) marks its body as all content:
 * nothing in it is chrome, and a short one would otherwise lose parts to the scoring.
 */
export const WHOLE_CONTENT = "main[data-document]";

/** Below this many characters a pass is taken as a miss and a more lenient one is tried. */
const ENOUGH_TEXT = 500;

interface Pass extends Flags {
  cleanConditionally: boolean;
}

const PASSES: Pass[] = [
  { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
];

interface Choice {
  roots: Element[];
  drop: Set<Element>;
  /** Lines of chrome between <br>s, removed with the drop (too short to count in `kept`). */
  runs?: ChildNode[];
  kept: number;
  /** The whole main region, not an article the scores chose. */
  wide?: boolean;
  /** The candidate the roots were chosen around. */
  top?: Element;
}

/**
 * When the best article holds less than this share of the words outside links that the whole
 * main region holds, the page is no article (a listing, a product, a forum thread, docs) and
 * the region is the content. A page that says it is an article needs far stronger evidence; a
 * landing page of headed sections (isSectionedPage) far less: one section outweighing the
 * others in the scores is still one of them.
 */
const WIDE_RATIO = { article: 0.2, other: 0.5, sections: 0.85 };

/**
 * Finds the main content of `doc`, removes the chrome inside it and returns it. With `stated`,
 * the page's JSON-LD statement of its body is read (off when the document is that statement).
 */
export function extractMainContent(doc: Document, stated = true): AnyNode {
  const body = select(doc, "body") ?? adoptedBody(doc);
  const stats = measure(body);
  const whole = stats.mains.find(compileSelector(WHOLE_CONTENT));
  if (whole) return whole;
  const head = select(doc, "head");
  const jsonLd = [...(head ? selectAll(head, LD_JSON) : []), ...stats.jsonLd];
  const statement = stated ? statedBody(jsonLd) : null;
  const product = readProduct(body, stats, jsonLd);
  const anchor = statement ? statedContainer(body, statement.normal) : null;
  const article = saysArticle(head, jsonLd) || stats.articleItem;
  // A page stating a product is read as one even when it also says article.
  const story = article && !product;
  // A product page's panels repeat and describe the product: no builder's rows of one story.
  const widen = !product;
  let best = bestChoice(body, stats, anchor, article, story, widen);
  // A product page's content holds the product's description: when the scores chose a part
  // without it (the reviews, a carousel), the description's container is the anchor.
  if (!anchor && product?.anchor && !holds(best, product.block!)) {
    best = bestChoice(body, stats, product.anchor, article, story, widen);
  }
  for (const el of product?.reviews ?? []) best.drop.add(el);
  // The markup shows little of the body the page states (its scripts fill it in, or a teaser
  // stands above a paywall): the statement is the content, its own chrome left out.
  const instead = statement && !product ? statedInstead(statement, plainText(best, stats)) : null;
  if (instead) return extractMainContent(instead, false);
  if (!best.wide && best.top) best = withThreadPosts(best, best.top, body, stats, story);
  removeAll(best.runs?.length ? new Set<ChildNode>([...best.drop, ...best.runs]) : best.drop);
  // A root judged chrome (a captioned image beside the story) stays out of the wrapper too.
  const roots = best.roots.filter((root) => !best.drop.has(root));
  removeAll(repeatedQuotes(roots, stats));
  // The story's lead, set in its header above the body the scores chose.
  const lead = best.wide || !roots.length
    ? null
    : leadBefore(firstWordsRoot(roots), stats, body, statedDescriptions(head));
  if (lead) roots.unshift(lead);
  const trailing = story && roots.length ? trailingHeading(roots[roots.length - 1]!, stats) : null;
  if (trailing) removeAll(new Set([trailing]));
  if (roots.length === 1) return roots[0]!;
  return adopt(new Element("div", {}), roots);
}

/** Roots that are a picture: the story's lead may sit between such a root and the body. */
const PICTURES = new Set(["figure", "picture", "img"]);

/**
 * The root the lead is looked for above: the first that is not a picture, since a story's
 * header often goes picture, lead, body, and the scores join the picture but not the lead.
 */
function firstWordsRoot(roots: Element[]): Element {
  return roots.find((root) => !PICTURES.has(root.name)) ?? roots[0]!;
}

/** The strictest pass that keeps enough, or the whole main region when it keeps far more. */
function bestChoice(
  body: Element,
  stats: PageStats,
  anchor: Element | null,
  article: boolean,
  story: boolean,
  widen: boolean,
): Choice {
  let best: Choice | null = null;
  let named = false;
  let trusted = false;
  // The scoring of the pass before, reused when this pass scores alike: it differs only in
  // its pruning, or in stripping where the pass before stripped nothing.
  let last: { pass: Pass; scoring: Scoring } | null = null;
  for (const pass of PASSES) {
    // A short story in a container the page names as content is the story: passes that
    // ignore names would only find a longer sidebar, widget or form.
    if (named && !pass.weightClasses) break;
    const same: boolean = last !== null && last.pass.weightClasses === pass.weightClasses &&
      (last.pass.stripUnlikely === pass.stripUnlikely || !last.scoring.stripped);
    // Scored and pruned alike, the pass would choose just what the one before chose.
    if (same && last!.pass.cleanConditionally === pass.cleanConditionally) continue;
    const scoring: Scoring = same ? last!.scoring : scoreCandidates(body, stats, pass);
    last = { pass, scoring };
    const choice = choose(body, stats, pass, scoring.scores, anchor, story, widen);
    // A choice a stricter pass rooted in a container named as content is not given up for
    // one that passes ignoring names found in a sidebar: a short post is still the post, and
    // as what outweighed it was chrome, the page's rest is no listing either.
    const sidebar = best !== null && choice.kept > best.kept && namedContent(best) &&
      choice.roots.every((root) => underChrome(root, body));
    if (sidebar) trusted = true;
    else if (inFooterOnly(choice, body)) continue;
    else if (!best || choice.kept > best.kept) best = choice;
    if (choice.kept >= ENOUGH_TEXT) break;
    named = story && pass.weightClasses && best !== null && namedContent(best);
  }
  const region = mainRegion(body, stats);
  const ratio = article
    ? WIDE_RATIO.article
    : isSectionedPage(region, stats)
    ? WIDE_RATIO.sections
    : region === body && best && holdsHeadline(best, stats)
    ? WIDE_RATIO.article
    : WIDE_RATIO.other;
  // The region's text outside links bounds what it keeps: when even that cannot win, its chrome
  // is not looked for. A short article named as content is no listing.
  const bound = stats.of(region).text - stats.of(region).linkText;
  if (!best || (!named && !trusted && bound * ratio > plainText(best, stats))) {
    const wide = wideChoice(region, stats, story);
    if (!best || plainText(wide, stats) * ratio > plainText(best, stats)) best = wide;
  }
  if (best.kept < ENOUGH_TEXT / 2 && !named && !trusted) {
    const bare = wideChoice(region, stats, story, true);
    if (bare.kept > best.kept * 2) best = bare;
  }
  return best;
}

/** Least text a choice named as content keeps to be trusted over passes ignoring names. */
const NAMED_ENOUGH = 100;

/** Whether `choice` keeps enough in a root whose class or id names content ("post", "entry"). */
function namedContent(choice: Choice): boolean {
  return choice.kept >= NAMED_ENOUGH && choice.roots.some((root) => classWeight(root) > 0);
}

/** Page furniture by tag: what is under it is no story. */
const FURNITURE = new Set(["aside", "nav", "footer", "header"]);

/** Whether `el` is, or is under, an element named or tagged as chrome (a sidebar, a footer). */
function underChrome(el: Element, body: Element): boolean {
  for (let up: Element | null = el; up && up !== body; up = parentElement(up)) {
    spend();
    if (FURNITURE.has(up.name) || isUnlikely(up)) return true;
  }
  return false;
}

/**
 * Whether `choice` lies wholly in the page's footer (a store's fine print, a site's address):
 * passes that ignore names find more text there than in a short product or service page, but
 * what the page marks as its footer is never its content.
 */
function inFooterOnly(choice: Choice, body: Element): boolean {
  return choice.kept > 0 && choice.roots.every((root) => inFooter(root, body));
}

/** Whether `el` is, or is under, the page's footer (a <footer> or role=contentinfo). */
function inFooter(el: Element, body: Element): boolean {
  for (let up: Element | null = el; up && up !== body; up = parentElement(up)) {
    spend();
    if (up.name === "footer" || up.attribs.role === "contentinfo") return true;
  }
  return false;
}

/** Whether `choice` keeps `el`: under one of its roots and under nothing it drops. */
function holds(choice: Choice, el: Element): boolean {
  let under = false;
  for (let up: Element | null = el; up; up = parentElement(up)) {
    spend();
    if (choice.drop.has(up)) return false;
    if (choice.roots.includes(up)) under = true;
  }
  return under;
}

/**
 * Takes `drop` out of the tree: one pass over each parent's children (removing them one by
 * one would search and splice the same long child list again for each).
 */
function removeAll(drop: Set<ChildNode>): void {
  const parents = new Set<ParentNode>();
  for (const el of drop) if (el.parent) parents.add(el.parent);
  for (const parent of parents) {
    const kept: ChildNode[] = [];
    for (const child of parent.children) {
      spend();
      if (drop.has(child)) {
        child.parent = child.prev = child.next = null;
        continue;
      }
      child.prev = kept[kept.length - 1] ?? null;
      if (child.prev) child.prev.next = child;
      kept.push(child);
    }
    if (kept.length) kept[kept.length - 1]!.next = null;
    parent.children = kept;
  }
}

/** Moves `nodes` (children of one parent, in order) under `wrapper`, in linear time. */
function adopt(wrapper: Element, nodes: ChildNode[]): Element {
  const moving = [...nodes];
  removeAll(new Set(moving));
  let prev: ChildNode | null = null;
  for (const node of moving) {
    spend();
    node.parent = wrapper;
    node.prev = prev;
    if (prev) prev.next = node;
    prev = node;
  }
  wrapper.children = moving;
  return wrapper;
}

/** A page without <body> (fragments, old markup): its top-level nodes moved into one. */
function adoptedBody(doc: Document): Element {
  const body = adopt(new Element("body", {}), doc.children);
  doc.children = [body];
  body.parent = doc;
  return body;
}

function choose(
  body: Element,
  stats: PageStats,
  pass: Pass,
  scores: Scores,
  anchor: Element | null,
  story: boolean,
  widen: boolean,
): Choice {
  const top = anchor ?? topCandidate(scores, body) ?? body;
  const joined = wholeOfParts(withSiblings(top, scores, stats), stats, body);
  const roots = widen && !anchor ? enclosingArticle(joined, stats, body) : joined;
  let contentText = 0;
  for (const root of roots) contentText += stats.of(root).text;
  // A cookie banner's text can outweigh a listing's, in passes that ignore its names: it is
  // never the content.
  if (contentText <= NOTICE_MAX && roots.every((root) => isCookieNotice(stats.textOf(root)))) {
    return { roots, drop: new Set(), kept: 0, top };
  }
  const runs: ChildNode[] = [];
  const drop = chromeWithin(roots, {
    stats,
    scores,
    contentText,
    cleanConditionally: pass.cleanConditionally,
    wide: false,
    story,
    runs,
  });
  let kept = contentText;
  for (const el of drop) {
    spend();
    kept -= stats.of(el).text;
  }
  return { roots, drop, runs, kept, top };
}

/** Longest content read for a cookie notice. */
const NOTICE_MAX = 2000;
/** A notice about cookies: the word, and what only such notices speak of beside it. */
const COOKIE_NOTICE =
  /\bcookies?\b[^]{0,300}?\b(?:consent|third[- ]part(?:y|ies)|similar technologies|accept all|privacy (?:policy|settings)|manage (?:your )?(?:preferences|settings|choices))\b|\b(?:consent|third[- ]part(?:y|ies)|accept all)\b[^]{0,300}?\bcookies?\b/i;

function isCookieNotice(text: string): boolean {
  return COOKIE_NOTICE.test(text);
}

const LD_JSON = 'script[type="application/ld+json"]';
const ARTICLE_TYPE = /"@type"\s*:\s*\[?\s*"(?:\w*Article|BlogPosting|Report|Review|Recipe|HowTo)"/;

/**
 * Whether the page's head says it is an article (og:type, or a schema.org article type in
 * JSON-LD); its microdata says so in PageStats.articleItem.
 */
function saysArticle(head: Element | null, jsonLd: Element[]): boolean {
  // A page may state og:type twice (a theme's "website", then a plugin's "article"): any
  // that says article counts.
  for (const og of head ? selectAll(head, 'meta[property="og:type"]') : []) {
    if (/article/i.test(og.attribs.content ?? "")) return true;
  }
  for (const script of jsonLd) {
    if (ARTICLE_TYPE.test(rawText(script))) return true;
  }
  return false;
}

/** Least share of the page's text (its footer's aside) a marked main region holds. */
const MAIN_SHARE = 0.4;

/**
 * The page's marked main region (<main> or role=main holding much of its text), or the body.
 * The page's footer is no part of what the share is measured on: a store's fine print can
 * outweigh the products the main region shows.
 */
function mainRegion(body: Element, stats: PageStats): Element {
  const total = stats.of(body).text;
  const main = stats.mains.find((el) => stats.of(el).text >= total * MAIN_SHARE);
  if (main || !stats.mains.length) return main ?? body;
  const rest = total - footerText(body, stats);
  return stats.mains.find((el) => stats.of(el).text >= rest * MAIN_SHARE) ?? body;
}

/** Characters in the page's footers (<footer>, role=contentinfo) outside its main regions. */
function footerText(body: Element, stats: PageStats): number {
  let text = 0;
  walkElements(body, (el) => {
    if (el.name === "main" || el.attribs.role === "main") return false;
    if (el.name !== "footer" && el.attribs.role !== "contentinfo") return true;
    text += stats.of(el).text;
    return false;
  });
  return text;
}

/** The main region with only plain chrome dropped. */
function wideChoice(region: Element, stats: PageStats, story: boolean, bare = false): Choice {
  const contentText = stats.of(region).text;
  // Lines of chrome between <br>s ("Credits: ...", "You must be logged in ...") are chrome on
  // any page: a region read whole loses them as a chosen article does.
  const runs: ChildNode[] = [];
  const drop = chromeWithin([region], {
    stats,
    scores: new Map(),
    contentText,
    cleanConditionally: false,
    wide: true,
    story,
    bare,
    runs,
  });
  let kept = contentText;
  for (const el of drop) kept -= stats.of(el).text;
  return { roots: [region], drop, runs, kept, wide: true };
}

/**
 * A chosen post with the thread's other posts (marked as it is, elsewhere on the page) joined,
 * each pruned of its chrome as the choice was. Joined once the choice is made: a page's
 * repeated blocks should not make a narrow choice win over the whole region.
 */
function withThreadPosts(
  choice: Choice,
  top: Element,
  body: Element,
  stats: PageStats,
  story: boolean,
): Choice {
  const roots = withPosts(choice.roots, top, body, stats);
  if (roots === choice.roots) return choice;
  const chosen = new Set(choice.roots);
  const added = roots.filter((root) => !chosen.has(root));
  let contentText = 0;
  for (const root of roots) contentText += stats.of(root).text;
  const runs = [...choice.runs ?? []];
  const drop = chromeWithin(added, {
    stats,
    scores: new Map(),
    contentText,
    cleanConditionally: true,
    wide: false,
    story,
    runs,
  });
  for (const el of choice.drop) drop.add(el);
  return { ...choice, roots, drop, runs };
}

/**
 * Whether `choice` keeps the page's headline: an <h1> repeating the page's title. A page that
 * marks no main region and whose best article is headed by the page's own title is that
 * article, whatever its metadata says (an old page states no og:type): its menus and teasers
 * outweighing a short story make it no listing. (A marked main region read whole holds no
 * menus: there the headline says less, a product's name heading its summary panel.)
 */
function holdsHeadline(choice: Choice, stats: PageStats): boolean {
  return stats.headlines.some((h1) =>
    holds(choice, h1) && repeatsTitle(stats.textOf(h1), pageTitles(h1))
  );
}

/** Characters outside links kept by `choice`. */
function plainText(choice: Choice, stats: PageStats): number {
  let kept = 0;
  for (const root of choice.roots) kept += stats.of(root).text - stats.of(root).linkText;
  for (const el of choice.drop) {
    spend();
    kept -= stats.of(el).text - stats.of(el).linkText;
  }
  return kept;
}
