/**
 * What an element's class and id say about it. Readability matches one regex against the joined
 * class and id string, so `Page-ad-margins` reads as an ad and `non-ad-column-l` as a column
 * of ads. Here each class token is judged on its own, split into words on `-`/`_`/camelCase,
 * and a token naming layout or state (a margin, a column, a wrapper, `has-sidebar`) says
 * nothing about the element's content.
 */
import type { Element } from "domhandler";

/** Words of chrome: an element named by one is probably not the content. */
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
  "footnote",
  "gdpr",
  "masthead",
  "media",
  "meta",
  "menu",
  "modal",
  "nav",
  "navbar",
  "navigation",
  "newsletter",
  "outbrain",
  "pagination",
  "pager",
  "popular",
  "popup",
  "promo",
  "related",
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
  "newsletter",
  "outbrain",
  "pager",
  "pagination",
  "popup",
  "related",
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
]);

/** Words of content that keep an unlikely-looking element in the running. */
const MAYBE = new Set(["and", "article", "body", "column", "content", "main", "story", "post"]);

/** Read once per element: every pass asks again of the same elements. */
const TOKENS = new WeakMap<Element, string[][]>();
const NONE: string[][] = [];

/** The words of each class token and of the id, lowercased. */
export function nameTokens(el: Element): string[][] {
  if (el.attribs.class === undefined && el.attribs.id === undefined) return NONE;
  let tokens = TOKENS.get(el);
  if (!tokens) TOKENS.set(el, tokens = readTokens(el));
  return tokens;
}

function readTokens(el: Element): string[][] {
  const names = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`.trim();
  if (!names) return NONE;
  const tokens: string[][] = [];
  for (const token of names.split(/\s+/)) {
    const words = token.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase().split(/[-_:.]+/)
      .filter(Boolean);
    if (words.length) tokens.push(words);
  }
  return tokens;
}

/** Whether one token names something of `set`, and not merely a layout or state of it. */
function tokenIs(words: string[], set: Set<string>): boolean {
  let hit = false;
  for (const word of words) {
    if (LAYOUT.has(word)) return false;
    if (set.has(word)) hit = true;
  }
  return hit;
}

/** Readability's class weight from tokens: -25 for chrome, +25 for content, each at most once. */
export function classWeight(el: Element): number {
  let weight = 0;
  let negative = false;
  let positive = false;
  for (const words of nameTokens(el)) {
    if (!negative && tokenIs(words, NEGATIVE)) negative = true;
    if (!positive && words.some((w) => POSITIVE.has(w))) positive = true;
  }
  if (negative) weight -= 25;
  if (positive) weight += 25;
  const itemprop = el.attribs.itemprop;
  if (itemprop && /articlebody|text/i.test(itemprop)) weight += 25;
  return weight;
}

const UNLIKELY_SEEN = new WeakMap<Element, boolean>();

/** An element whose names say chrome and never content: skipped with its subtree. */
export function isUnlikely(el: Element): boolean {
  if (el.attribs.class === undefined && el.attribs.id === undefined && !el.attribs.role) {
    return false;
  }
  let unlikely = UNLIKELY_SEEN.get(el);
  if (unlikely === undefined) UNLIKELY_SEEN.set(el, unlikely = readUnlikely(el));
  return unlikely;
}

function readUnlikely(el: Element): boolean {
  const tokens = nameTokens(el);
  const role = el.attribs.role;
  if (role && /^(?:menu|menubar|complementary|navigation|alert|alertdialog|dialog)$/.test(role)) {
    return true;
  }
  if (!tokens.length) return false;
  let unlikely = false;
  for (const words of tokens) {
    if (words.some((w) => MAYBE.has(w))) return false;
    if (tokenIs(words, UNLIKELY)) unlikely = true;
  }
  return unlikely;
}
