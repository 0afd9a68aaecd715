/**
 * What an element's class and id say about it. Readability matches one regex against the joined
 * class and id string, so `Page-ad-margins` reads as an ad and `non-ad-column-l` as a column
 * of ads. Here each class token is judged on its own, split into words on `-`/`_`/camelCase,
 * and a token naming layout or state (a margin, a column, a wrapper, `has-sidebar`) says
 * nothing about the element's content.
 */
import type { Element } from "domhandler";

/**
 * Words of chrome: an element named by one is probably not the content. Not "footnote" (in
 * Readability's early list): a post's notes are its own words, rendered as Markdown footnotes.
 */
const NEGATIVE = new Set([
  "ad",
  "ads",
  "advert",
  "advertisement",
  "adsense",
  "banner",
  "breadcrumb",
  "breadcrumbs",
  "byline",
  "combx",
  "comment",
  "comments",
  "commentlist",
  "community",
  "disqus",
  "footer",
  "gdpr",
  "masthead",
  "media",
  "meta",
  "menu",
  "modal",
  "nav",
  "navbar",
  "navheader",
  "navfooter",
  "navigation",
  "newsletter",
  "outbrain",
  "pagination",
  "pager",
  "popular",
  "popup",
  "promo",
  "related",
  "similar",
  "recommended",
  "remark",
  "replies",
  "reviews",
  "rss",
  "share",
  "sharing",
  "shoutbox",
  "sidebar",
  "skyscraper",
  "social",
  "sponsor",
  "sponsored",
  "subscribe",
  "subscription",
  "taboola",
  "tags",
  "tool",
  "toolbar",
  "trending",
  "widget",
  "cookie",
  "cookies",
  "consent",
  // A call to action: a banner selling the site's product beside the story.
  "cta",
]);

/** Words of content. */
const POSITIVE = new Set([
  "article",
  "articlebody",
  "body",
  "content",
  "entry",
  "hentry",
  "main",
  "page",
  "post",
  "text",
  "blog",
  "story",
  "prose",
  "markdown",
  "answer",
  "question",
  "thread",
  "message",
  "description",
]);

/** Words that make a token about layout or state, whatever else it names. */
const LAYOUT = new Set([
  "margin",
  "margins",
  "column",
  "col",
  "cols",
  "wrap",
  "wrapper",
  "container",
  "layout",
  "grid",
  "pusher",
  "canvas",
  "inner",
  "outer",
  "has",
  "with",
  "non",
  "no",
  "without",
  "show",
  "hide",
  "is",
]);

/** The class word of what stays on screen while the page scrolls (and of a pinned row). */
const STICKY = "sticky";

/** Chrome that whole subtrees are skipped for before scoring (Readability's unlikely set). */
const UNLIKELY = new Set([
  "ad",
  "ads",
  "advert",
  "advertisement",
  "banner",
  "breadcrumb",
  "breadcrumbs",
  "combx",
  "comment",
  "comments",
  "community",
  "cookie",
  "consent",
  "disqus",
  "footer",
  "gdpr",
  "header",
  "menu",
  "modal",
  "navbar",
  "navheader",
  "navfooter",
  "newsletter",
  "outbrain",
  "pager",
  "pagination",
  "popup",
  "related",
  "similar",
  "remark",
  "replies",
  "rss",
  "share",
  "shoutbox",
  "sidebar",
  "skyscraper",
  "social",
  "sponsor",
  "sponsored",
  "taboola",
  "agegate",
  "cta",
  // What stays on screen while the page scrolls under it (an add-to-cart bar repeating the
  // product's name and price, a sidebar of hot comments) is furniture, not the content's flow.
  STICKY,
]);

/** Words of content that keep an unlikely-looking element in the running. */
const MAYBE = new Set(["and", "article", "body", "column", "content", "main", "story", "post"]);

/** What an element's class and id say, read once per distinct value. */
interface Names {
  /** The words of each class token and of the id, lowercased. */
  tokens: string[][];
  /** The class weight these names give (itemprop aside). */
  weight: number;
  /** Names of chrome, never of content (role aside). */
  unlikely: boolean;
  /** Unlikely through the word sticky alone: a pinned row when it names a list item. */
  onlySticky: boolean;
  /** What each NamesTest said of these names, asked once. */
  said: Map<NamesTest, boolean> | null;
}

/** A question about an element's name tokens (module-level: its identity is the memo's key). */
export type NamesTest = (tokens: string[][]) => boolean;

const NONE: Names = { tokens: [], weight: 0, unlikely: false, onlySticky: false, said: null };

/**
 * Names read already, by their text: pages repeat the same class on many elements, and every
 * pass asks again of the same ones. Emptied past MAX_NAME_CHARS of keys, so that no page's
 * (or run of pages') names grow it without bound.
 */
const NAMES = new Map<string, Names>();
const MAX_NAME_CHARS = 1_000_000;
let nameChars = 0;

/**
 * The element asked of last, by its attribute map (each element has its own, never changed):
 * the pruning asks several questions of one element in a row. The map, not the element, is
 * kept, so that no page's DOM stays reachable from here.
 */
let lastAttribs: Record<string, string> | null = null;
let lastNames: Names = NONE;

function namesOf(el: Element): Names {
  const attribs = el.attribs;
  if (attribs !== lastAttribs) {
    lastNames = readNamesOf(attribs);
    lastAttribs = attribs;
  }
  return lastNames;
}

function readNamesOf(attribs: Record<string, string>): Names {
  const { class: cls, id } = attribs;
  if (cls === undefined && id === undefined) return NONE;
  // The tokens are those of the class and id joined: the joined text is the key.
  const key = id === undefined ? cls! : cls === undefined ? id : `${cls} ${id}`;
  let names = NAMES.get(key);
  if (!names) {
    if (nameChars + key.length > MAX_NAME_CHARS) {
      NAMES.clear();
      nameChars = 0;
    }
    names = readNames(key);
    NAMES.set(key, names);
    nameChars += key.length;
  }
  return names;
}

/** The words of each class token and of the id, lowercased. */
export function nameTokens(el: Element): string[][] {
  return namesOf(el).tokens;
}

/**
 * What `test` says of the element's name tokens, asked once per distinct class and id: the
 * pruning passes and the product reading ask the same few questions of every element.
 */
export function namesSay(el: Element, test: NamesTest): boolean {
  const names = namesOf(el);
  if (names.tokens.length === 0) return test(names.tokens);
  let said = names.said?.get(test);
  if (said === undefined) {
    said = test(names.tokens);
    (names.said ??= new Map()).set(test, said);
  }
  return said;
}

/** The test "a token has a word of `words`". */
export function anyWordOf(words: ReadonlySet<string>): NamesTest {
  return (tokens) => tokens.some((token) => token.some((word) => words.has(word)));
}

function readNames(key: string): Names {
  const names = key.trim();
  if (!names) return NONE;
  const tokens: string[][] = [];
  // The tokens the unlikely test reads: a component's own header is not the page's.
  let chromeTokens: string[][] | null = null;
  for (const token of names.split(/\s+/)) {
    const words = wordsOf(token);
    if (!words.length) continue;
    tokens.push(words);
    const block = componentOfHeader(token);
    if (block) chromeTokens ??= tokens.slice(0, -1);
    chromeTokens?.push(block ?? words);
  }
  const unlikely = tokensUnlikely(chromeTokens ?? tokens);
  const onlySticky = unlikely && !tokensUnlikely(chromeTokens ?? tokens, STICKY);
  return { tokens, weight: tokensWeight(tokens), unlikely, onlySticky, said: null };
}

function wordsOf(token: string): string[] {
  return token.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase().split(/[-_:.]+/).filter(Boolean);
}

/** Blocks that are the page itself: their BEM header is the page's masthead. */
const PAGE_BLOCKS = new Set(["site", "page", "app", "global", "header", "masthead", "top"]);

/**
 * A BEM element named header (`card__header`, `product-tile__header-title`): the head of its
 * block, a card's or a panel's title, not the page's masthead, unless the block is the page
 * itself (`site__header`). Returns the block's words, which still say what the block is
 * (`sidebar-module__header` stays chrome through `sidebar`), or null for any other token.
 */
function componentOfHeader(token: string): string[] | null {
  const at = token.indexOf("__");
  if (at <= 0) return null;
  if (!wordsOf(token.slice(at + 2)).includes("header")) return null;
  const block = wordsOf(token.slice(0, at));
  return block.length && !block.some((word) => PAGE_BLOCKS.has(word)) ? block : null;
}

function tokenIs(words: string[], set: Set<string>, except = ""): boolean {
  let hit = false;
  for (const word of words) {
    if (LAYOUT.has(word)) return false;
    if (word !== except && (set.has(word) || set.has(chromeEnding(word)))) hit = true;
  }
  return hit;
}

/**
 * Page furniture written as one word with what it belongs to ("globalfooter", "sitefooter",
 * "leftsidebar", "topnav", "globalnav"): its chrome ending, or "" when it has none.
 */
function chromeEnding(word: string): string {
  for (const ending of CHROME_ENDINGS) {
    if (word.length > ending.length + 2 && word.endsWith(ending)) return ending;
  }
  return "";
}

/** Chrome words that end compound class words. */
const CHROME_ENDINGS = ["footer", "sidebar", "navbar", "nav"];

/** Readability's class weight from tokens: -25 for chrome, +25 for content, each at most once. */
export function classWeight(el: Element): number {
  let weight = namesOf(el).weight;
  const itemprop = el.attribs.itemprop;
  if (itemprop && /articlebody|text/i.test(itemprop)) weight += 25;
  return weight;
}

function tokensWeight(tokens: string[][]): number {
  let weight = 0;
  let negative = false;
  let positive = false;
  const builder = builderPrefix(tokens);
  for (const words of tokens) {
    const part = builder !== null && words[0] === builder && words.some((w) => PART_WORDS.has(w));
    if (!negative && !part && tokenIs(words, NEGATIVE)) negative = true;
    if (!positive && words.some((w) => POSITIVE.has(w))) positive = true;
  }
  if (negative) weight -= 25;
  if (positive) weight += 25;
  return weight;
}

/**
 * Words a page builder names every block of its page with (`builder-widget`,
 * `builder-widget-text-editor`): under its prefix they name a kind of block, not chrome.
 */
const PART_WORDS = new Set(["widget", "widgets"]);
/** Tokens of one element sharing a first word that mark it as a page builder's block. */
const BUILDER_TOKENS = 3;

/** The first word most of an element's class tokens share (a page builder's), if any. */
function builderPrefix(tokens: string[][]): string | null {
  if (tokens.length < BUILDER_TOKENS) return null;
  const counts = new Map<string, number>();
  for (const words of tokens) {
    if (words.length < 2) continue;
    const n = (counts.get(words[0]!) ?? 0) + 1;
    if (n >= BUILDER_TOKENS) return words[0]!;
    counts.set(words[0]!, n);
  }
  return null;
}

const UNLIKELY_ROLE = /^(?:menu|menubar|complementary|navigation|alert|alertdialog|dialog)$/;

/** An element whose names say chrome and never content: skipped with its subtree. */
export function isUnlikely(el: Element): boolean {
  return unlikelyRole(el) || unlikelyNames(el, namesOf(el)) || chromeItem(el);
}

/**
 * schema.org's types of page furniture, stated in microdata: a breadcrumb trail, the site's
 * navigation, its header, footer, sidebar or ad slots (WebPageElement's subtypes).
 */
const CHROME_ITEM =
  /schema\.org\/(?:BreadcrumbList|SiteNavigationElement|WPHeader|WPFooter|WPSideBar|WPAdBlock)$/;

function chromeItem(el: Element): boolean {
  const itemtype = el.attribs.itemtype;
  return itemtype !== undefined && CHROME_ITEM.test(itemtype.trim());
}

/**
 * isUnlikely on the class and role alone: a document's section whose id is only an anchor made
 * of its subject's words (anchoredSection).
 */
export function isUnlikelyByClass(el: Element): boolean {
  const className = el.attribs.class;
  return unlikelyRole(el) ||
    (className !== undefined && unlikelyNames(el, readNamesOf({ class: className })));
}

function unlikelyRole(el: Element): boolean {
  const role = el.attribs.role;
  return role !== undefined && role !== "" && UNLIKELY_ROLE.test(role);
}

function unlikelyNames(el: Element, names: Names): boolean {
  return names.unlikely && !(names.onlySticky && isPinnedRow(el));
}

/** Rows of a list or table: a forum index's pinned topics (`li class="row sticky"`). */
const ROWS = new Set(["li", "tr"]);

/**
 * A list item or table row named sticky is a topic pinned at the top of a listing, one of its
 * items: what stays on screen while the page scrolls is a bar or a box, never one row.
 */
function isPinnedRow(el: Element): boolean {
  return ROWS.has(el.name);
}

function tokensUnlikely(tokens: string[][], except = ""): boolean {
  let unlikely = false;
  for (const words of tokens) {
    if (words.some((w) => MAYBE.has(w))) return false;
    if (tokenIs(words, UNLIKELY, except)) unlikely = true;
  }
  return unlikely;
}
