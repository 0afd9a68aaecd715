/**
 * Sizes of every element's visible text, counted once for the whole page in one post-order
 * walk (a parent's figures are the sums of its children's), so that scoring and pruning read
 * link density, paragraph counts and the like in constant time per element.
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { spend } from "../dom/budget.ts";
import { BLOCK_TAGS, HEADING_TAGS, textOf } from "../dom/mod.ts";
import { isHidden } from "./visibility.ts";
import { openDisclosure } from "./disclosure.ts";

export interface Stats {
  /** Characters of visible text, whitespace runs counted as one. */
  text: number;
  /** Of which inside links. */
  linkText: number;
  /** Commas (Latin, CJK, Arabic): clauses of running prose. */
  commas: number;
  paragraphs: number;
  images: number;
  listItems: number;
  inputs: number;
  embeds: number;
  headingText: number;
  /** Whether a block element is inside (a div holding only inline content reads as a <p>). */
  hasBlock: boolean;
  /** Whether a <br> is among its own children (not its descendants'): lines split by breaks. */
  breaks: boolean;
}

/** Never text a reader sees. */
export const SILENT = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "svg",
  "math",
  "iframe",
  "object",
  "embed",
  "canvas",
  "select",
  "textarea",
  "button",
  "option",
  "dialog",
]);

/**
 * Elements that start a block of their own in reading: the DOM's block tags, less the short
 * labels a paragraph's count should not be split at (a table's caption, a details' summary).
 */
export const BLOCKS: ReadonlySet<string> = new Set(
  [...BLOCK_TAGS].filter((tag) => !["caption", "html", "summary"].includes(tag)),
);

const EMBEDS = new Set(["iframe", "object", "embed", "video", "audio"]);

// What measure() asks of a tag name, as bits of one lookup per element (four sets otherwise).
const IS_EMBED = 1;
const IS_SILENT = 2;
const IS_HEADING = 4;
const IS_BLOCK = 8;
const KINDS = new Map<string, number>();
for (
  const [tags, bit] of [
    [EMBEDS, IS_EMBED],
    [SILENT, IS_SILENT],
    [HEADING_TAGS, IS_HEADING],
    [BLOCKS, IS_BLOCK],
  ] as const
) {
  for (const tag of tags) KINDS.set(tag, (KINDS.get(tag) ?? 0) | bit);
}

export const EMPTY: Stats = Object.freeze({
  text: 0,
  linkText: 0,
  commas: 0,
  paragraphs: 0,
  images: 0,
  listItems: 0,
  inputs: 0,
  embeds: 0,
  headingText: 0,
  hasBlock: false,
  breaks: false,
});

export interface PageStats {
  of(el: Element): Stats;
  /**
   * textOf(el), read once per element: the passes over the page ask again of the same short
   * blocks. Valid while the DOM is unchanged (until the chrome is removed).
   */
  textOf(el: Element): string;
  /** Hidden by the page (or inside something hidden). */
  hidden: Set<Element>;
  /** <main> and role=main elements, in document order. */
  mains: Element[];
  /** The page's first <h1> elements, in document order (at most MAX_HEADLINES). */
  headlines: Element[];
  /** Whether an element states itself a schema.org article in microdata (itemtype). */
  articleItem: boolean;
  /** JSON-LD scripts. */
  jsonLd: Element[];
  /** Whether the page quotes anything (a `<blockquote>`): repeatedQuotes reads none else. */
  quotes: boolean;
  /**
   * What `test` (a module-level function of a text alone) says of `text`, asked once per page:
   * the passes over a page judge the same lines again, and the tests of words are long regexes.
   */
  judged(test: (text: string) => boolean, text: string): boolean;
}

/**
 * Where each element's figures are kept: on the element itself, with the measure() that counted
 * them (a DOM may be measured again, from another root). The passes over the page ask for an
 * element's figures many times; a property read costs far less than a Map's lookup.
 */
const FIGURES = Symbol("figures");

/** An element's figures, counted from zero by one measure() call. */
class Figures implements Stats {
  text = 0;
  linkText = 0;
  commas = 0;
  paragraphs = 0;
  images = 0;
  listItems = 0;
  inputs = 0;
  embeds = 0;
  headingText = 0;
  hasBlock = false;
  breaks = false;
  /** Empty links to other pages among its descendants (isEmptyPageLink). */
  emptyLinks = 0;
  /** Its children that are cards reached through an empty link (isCard). */
  cards: Figures[] | null = null;
  constructor(readonly by: Counting) {}
}

type Measured = AnyNode & { [FIGURES]?: Figures };

/** One measure() call, by identity. */
type Counting = Record<never, never>;

/** Counts every element under `root`; silent elements count nothing. */
export function measure(root: AnyNode): PageStats {
  const counting: Counting = {};
  const hidden = new Set<Element>();
  const mains: Element[] = [];
  const headlines: Element[] = [];
  let articleItem = false;
  let quotes = false;
  const jsonLd: Element[] = [];
  // Nodes to visit, and (marked by CLOSE after them) nodes whose children are all counted:
  // the running totals of open elements wait on their own stack.
  const stack: (AnyNode | typeof CLOSE)[] = [root];
  const totals: Figures[] = [new Figures(counting)];
  while (stack.length) {
    spend();
    const item = stack.pop()!;
    if (item === CLOSE) {
      close(stack.pop() as AnyNode, totals);
      continue;
    }
    const node = item;
    if (isText(node)) {
      countText(node.data, totals[totals.length - 1]!);
      continue;
    }
    if (!("children" in node)) continue;
    if (isTag(node)) {
      const el = node;
      const top = totals[totals.length - 1]!;
      if (el.name === "img" || el.name === "picture") {
        top.images++;
        continue;
      }
      if (el.name === "input") {
        // A disabled checkbox shows a task's state (a task list), not a form to fill in.
        if (!isTaskBox(el)) top.inputs++;
        continue;
      }
      const kind = KINDS.get(el.name) ?? 0;
      if (kind & IS_EMBED) top.embeds++;
      if (el.name === "script" && el.attribs.type === "application/ld+json") jsonLd.push(el);
      // A button is a control, unless it heads an accordion's panel: then it becomes its text.
      if (kind & IS_SILENT && !(el.name === "button" && openDisclosure(el))) continue;
      if (el.name === "main" || el.attribs.role === "main") mains.push(el);
      if (el.name === "h1" && headlines.length < MAX_HEADLINES) headlines.push(el);
      const itemtype = el.attribs.itemtype;
      if (itemtype !== undefined && !articleItem) articleItem = ARTICLE_ITEM.test(itemtype);
      if (el.name === "blockquote") quotes = true;
      if (isHidden(el)) hidden.add(el);
    }
    stack.push(node, CLOSE);
    totals.push(new Figures(counting));
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  // Most of the page hidden is content a script shows (a paywall or age gate in the markup):
  // readers of the page see it, and so it counts.
  const counted = (node: AnyNode): Figures | undefined => {
    const figures = (node as Measured)[FIGURES];
    return figures?.by === counting ? figures : undefined;
  };
  const of = (el: Element): Stats => counted(el) ?? EMPTY;
  const total = counted(root)?.text ?? totals[0]!.text;
  for (const el of hidden) {
    spend();
    if (of(el).text >= total * 0.25) hidden.delete(el);
  }
  return {
    of,
    textOf: textsOnce(),
    hidden,
    mains,
    headlines,
    articleItem,
    jsonLd,
    quotes,
    judged: verdictsOnce(),
  };
}

/** A schema.org article type in microdata: what JSON-LD's @type says in a page's markup. */
const ARTICLE_ITEM = /schema\.org\/(?:\w*Article|BlogPosting)\b/i;

/** How many of a page's <h1>s are kept: a story has one, a listing's cards may each have one. */
const MAX_HEADLINES = 8;

/** Characters of text kept by one page's textsOnce; past them, texts are read each time. */
const MAX_KEPT_TEXT = 1_000_000;

function textsOnce(): (el: Element) => string {
  const texts = new Map<Element, string>();
  let kept = 0;
  return (el) => {
    let text = texts.get(el);
    if (text === undefined) {
      text = textOf(el);
      if (kept + text.length <= MAX_KEPT_TEXT) {
        texts.set(el, text);
        kept += text.length;
      }
    }
    return text;
  };
}

/** Characters of text whose verdicts one page's verdictsOnce keeps; past them, tests run again. */
const MAX_JUDGED_TEXT = 1_000_000;

function verdictsOnce(): PageStats["judged"] {
  const verdicts = new Map<(text: string) => boolean, Map<string, boolean>>();
  let kept = 0;
  return (test, text) => {
    let said = verdicts.get(test);
    if (said === undefined) verdicts.set(test, said = new Map());
    let verdict = said.get(text);
    if (verdict === undefined) {
      verdict = test(text);
      if (kept + text.length <= MAX_JUDGED_TEXT) {
        said.set(text, verdict);
        kept += text.length;
      }
    }
    return verdict;
  };
}

/**
 * An empty link to another page: on a card of the site's other stories, the page's CSS lays it
 * over the card (a "stretched link") or over its picture and headline.
 */
function isEmptyPageLink(a: Element): boolean {
  const href = a.attribs.href?.trim();
  if (!href || href.startsWith("#") || /^javascript:/i.test(href)) return false;
  return a.children.every(isBlank);
}

function isBlank(node: AnyNode): boolean {
  return isText(node) && !/\S/.test(node.data);
}

/** The elements that can be such cards (never a paragraph or a heading of running text)... */
const CARDS = new Set(["article", "li", "div", "section"]);

/** ...at most this much text: a headline, a kicker and a line, not a story... */
const CARD_MAX_TEXT = 300;

/** ...and how many siblings make a strip of them (one card's stray empty link does not). */
const CARD_RUN = 3;

/** A card reached through an empty link: no words in links, a card's length, a card's tag. */
function isCard(name: string, own: Figures): boolean {
  return own.emptyLinks > 0 && own.linkText === 0 && own.text > 0 &&
    own.text <= CARD_MAX_TEXT && CARDS.has(name);
}

/** Marks, on measure's stack, that the node under it has had all its children counted. */
const CLOSE = Symbol("close");

/** An element's own figures, all its children counted, added to its parent's. */
function close(node: AnyNode, totals: Figures[]): void {
  const own = totals.pop()!;
  const parent = totals[totals.length - 1]!;
  if (isTag(node)) {
    const name = node.name;
    if (name === "a") {
      if (own.images === 0 && isEmptyPageLink(node)) {
        own.emptyLinks = 1; // and its whitespace is no word of a link
      } else {
        own.linkText = own.text;
      }
    }
    if (own.cards && own.cards.length >= CARD_RUN) {
      // A strip of cards of other pages, each reached through an empty link: to a reader their
      // words are those links' text.
      for (const card of own.cards) {
        own.linkText += card.text - card.linkText;
        card.linkText = card.text;
      }
    }
    own.cards = null; // counted: not kept with the element's figures
    if (isCard(name, own)) (parent.cards ??= []).push(own);
    if (name === "p") own.paragraphs++;
    if (name === "li") own.listItems++;
    const kind = KINDS.get(name) ?? 0;
    if (kind & IS_HEADING) own.headingText = own.text;
    if (kind & IS_BLOCK) parent.hasBlock = true;
    if (name === "br") parent.breaks = true;
    (node as Measured)[FIGURES] = own;
  }
  parent.text += own.text;
  parent.linkText += own.linkText;
  parent.commas += own.commas;
  parent.paragraphs += own.paragraphs;
  parent.images += own.images;
  parent.listItems += own.listItems;
  parent.inputs += own.inputs;
  parent.embeds += own.embeds;
  parent.headingText += own.headingText;
  parent.emptyLinks += own.emptyLinks;
  parent.hasBlock ||= own.hasBlock;
}

/**
 * Adds a text's length with whitespace runs counted as one (as `text.replace(/\s+/g, " ")`
 * would make it) and its commas to `into`, by native scans that build no string; a text of
 * whitespace only counts `blank`, an empty one nothing.
 */
export function countText(
  text: string,
  into: { text: number; commas: number },
  blank = 1,
): void {
  if (text.length === 0) return;
  if (!VISIBLE.test(text)) {
    into.text += blank;
    return;
  }
  let length = text.length;
  SPACE_RUN.lastIndex = 0;
  for (let run = SPACE_RUN.exec(text); run !== null; run = SPACE_RUN.exec(text)) {
    length -= run[0].length - 1;
  }
  let commas = 0;
  for (let at = text.indexOf(","); at !== -1; at = text.indexOf(",", at + 1)) commas++;
  if (WIDE_COMMA_RANGE.test(text)) {
    WIDE_COMMA.lastIndex = 0;
    while (WIDE_COMMA.exec(text) !== null) commas++;
  }
  into.text += length;
  into.commas += commas;
}

const VISIBLE = /\S/;
/** Whitespace that collapses: each run of two or more counts one. */
const SPACE_RUN = /\s{2,}/g;
/** Commas of Arabic and CJK scripts (and small and full-width forms), and a range holding them. */
const WIDE_COMMA = /[\u060c\ufe50\ufe10\ufe11\u2e41\u2e34\u2e32\uff0c\u3001]/g;
const WIDE_COMMA_RANGE = /[\u060c-\uff0c]/;

export function linkDensity(s: Stats): number {
  return s.text ? Math.min(1, s.linkText / s.text) : 0;
}

/** A disabled checkbox: how task lists (GitHub's, most Markdown renderers') draw an item's state. */
export function isTaskBox(el: Element): boolean {
  return el.attribs.type?.toLowerCase() === "checkbox" && el.attribs.disabled !== undefined;
}
