/**
 * Chrome inside the chosen content: what Readability's conditional cleaning and trafilatura's
 * boilerplate rules remove, decided top-down from the page's counts (no element's text is
 * measured twice). Returns the elements to drop; nothing is removed here.
 */
import { type ChildNode, type Element, isTag, type ParentNode } from "domhandler";
import { spend } from "../dom/budget.ts";
import { elementFrom, HEADING_TAGS, select, walkElements } from "../dom/mod.ts";
import { anyWordOf, classWeight, isUnlikely, namesSay, type NamesTest } from "./classes.ts";
import { anchoredHeading, anchoredSection } from "./anchors.ts";
import { isItemCard } from "./cards.ts";
import { isIntroducedList } from "./introduced.ts";
import {
  APPEAL_BOX,
  APPEAL_LINE,
  APPEAL_OPENING,
  BIO_LINE,
  introducesPerson,
  isAppeal,
  isAppealBox,
  isAuthorBio,
  isByline,
  isChromeHeading,
  isChromeText,
  isDateLine,
  isSponsorHeading,
  opensWithAppeal,
  SHORT_BLOCK,
  startsAsChrome,
} from "./boilerplate.ts";
import { pageTitles, repeatsTitle } from "./headline.ts";
import { BLOCKS, isTaskBox, linkDensity, type PageStats, SILENT, type Stats } from "./stats.ts";
import { parentElement, type Scores } from "./score.ts";
import { chromeRunsOf } from "./runs.ts";
import { type EntryCache, inEntry } from "./entries.ts";
import { furnitureTag } from "./components.ts";
import { headedChrome } from "./headed_sections.ts";
import { isKicker } from "./kicker.ts";

/** Never content inside an article. */
const CHROME_TAGS = new Set([
  "nav",
  "aside",
  "button",
  "input",
  "select",
  "textarea",
  "label",
  "menu",
  "dialog",
]);
/** Code, set as it is written: nothing inside it is chrome. */
const CODE = new Set(["pre", "code"]);
/** Inline elements: a part of a line, not a line. */
const INLINE = new Set(
  ("span time a em strong b i u s small big font abbr cite q mark sub sup ins del code tt")
    .split(" "),
);
/** Lines of prose: one that is a link and nothing else points elsewhere. */
const LINE_TAGS = new Set(["p"]);
/** Table parts: a date or a name in a cell is data. */
const CELLS = new Set(["table", "thead", "tbody", "tfoot", "tr", "td", "th"]);
/** Blocks that a chrome heading names whole. */
const SECTIONS = new Set(["div", "section", "aside", "ul", "ol", "dl", "header", "footer", "nav"]);
/** Longest line read as a link to elsewhere when it opens with chrome words. */
const LINKED_LINE_MAX = 400;
/** Links set apart by a bar, a bullet or a middle dot, with spaces around it. */
const MENU_LINE = /\S\s+[|•·]\s+\S/;
/** Least link density of a menu line. */
const MENU_LINKS = 0.6;
/** Longer than this, a block headed as chrome is still content unless mostly links. */
const SECTION_MAX = 2500;
/** How deep a block's first line is looked for. */
const LEAD_DEPTH = 4;
/** Headings that may only repeat the page's title. */
const TITLE_HEADINGS = new Set(["h1", "h2"]);
/** Page furniture around a region. */
const WIDE_CHROME = new Set(["header", "footer", "form"]);
const CHROME_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menu",
  "menubar",
  "dialog",
  "alertdialog",
]);
/** Judged by their counts: Readability's conditionally cleaned tags. */
const CONDITIONAL = new Set([
  "table",
  "ul",
  "ol",
  "dl",
  "div",
  "section",
  "form",
  "fieldset",
  "header",
  "footer",
]);
/** Words of a photo credit. */
const CREDIT =
  /©|\(c\)|\b(?:photo|foto|image|bild|picture|credit|courtesy|getty|reuters|afp|dpa|epa|shutterstock|istock)\b|\w\/\w/iu;
/** Image formats of drawings (diagrams, charts, screenshots), not photos. */
const DRAWING = /\.(?:png|svg|gif)(?:[?#\s]|$)/i;
/** Longest text read as an image's caption. */
const CAPTION_MAX = 300;
const IMAGE_WORDS = new Set([
  "img",
  "image",
  "images",
  "imagen",
  "photo",
  "foto",
  "bild",
  "picture",
  "pic",
  "figure",
  "thumbnail",
]);
/** Longest text read as a link's hover card. */
const HOVER_MAX = 600;
const HOVER_WORDS = new Set(["tooltip", "popover", "hovercard", "hover", "popup", "preview"]);
const POSTER_WORDS = new Set(["details", "extras", "info", "stats", "title", "banner", "blurb"]);
const SOCIAL = new Set(["twitter", "tweet", "instagram", "tiktok", "facebook", "fb"]);
const EMBED_WORDS = new Set(["embed", "post", "media", "tweet", "video"]);
const CAPTION_WORDS = new Set([
  "dida",
  "didascalia",
  "legend",
  "legende",
  "bildunterschrift",
  "caption",
  "credit",
  "credits",
  "copyright",
  "byline",
  "dateline",
  "author",
  "bio",
  "gallery",
  "slideshow",
  "carousel",
  "timestamp",
  "published",
  "updated",
  // The publisher's notes around the story: its filing line, disclaimers, affiliate notices.
  "postmeta",
  "postmetadata",
  "disclaimer",
  "disclosure",
  "affiliate",
]);

export interface PruneContext {
  stats: PageStats;
  scores: Scores;
  /** Characters of the whole content: the scale "small" is measured on. */
  contentText: number;
  cleanConditionally: boolean;
  /** A whole region, not an article: its page furniture goes too. */
  wide: boolean;
  /** The page says it is an article and states no product. */
  story?: boolean;
  /** Only what no reader sees goes (the last resort when everything else kept nothing). */
  bare?: boolean;
  /** Set once a heading repeating the page's title was kept. */
  titleSeen?: boolean;
  /** Where lines of chrome between <br>s (text and inline nodes) are gathered, when given. */
  runs?: ChildNode[];
  /** The root being pruned, and which of its elements lie in a listing's entries. */
  entries?: { root: Element; cache: EntryCache };
}

/** The elements of `roots` (and their subtrees) that are chrome. */
export function chromeWithin(roots: Element[], ctx: PruneContext): Set<Element> {
  const drop = new Set<Element>();
  // Siblings a chrome heading heads, dropped before the walk reaches them.
  const headed = new Set<Element>();
  for (const root of roots) {
    ctx.entries = { root, cache: new Map() };
    const visit = (el: Element): boolean => {
      if (headed.size && headed.has(el)) {
        drop.add(el);
        return false;
      }
      if (SILENT.has(el.name) || ctx.stats.hidden.has(el)) {
        drop.add(el);
        return false;
      }
      const s = ctx.stats.of(el);
      if (ctx.bare ? isChromeWords(el, s, ctx) : isChrome(el, s, ctx)) {
        drop.add(el);
        if (ctx.story && !ctx.bare) headedChrome(el, ctx.stats, ctx.contentText, headed);
        return false;
      }
      // Code is read whole: its highlighter names tokens "comment", "meta", "tag" or "nav".
      if (CODE.has(el.name)) {
        dropUnseen(el, ctx, drop);
        return false;
      }
      if (ctx.runs && (s.breaks || s.hasBlock) && BLOCKS.has(el.name)) {
        chromeRunsOf(el, ctx.stats, ctx.runs);
      }
      return true;
    };
    if (visit(root)) walkElements(root, visit);
  }
  return drop;
}

/**
 * An inline part of a heading (mdBook's `<h2><a class="header" href="#...">Title</a></h2>`, a
 * span styling a word): the heading's own words, judged with the heading, not by their names.
 */
function isHeadingText(el: Element): boolean {
  const parent = el.parent as Element | null;
  return INLINE.has(el.name) && parent !== null && HEADING_TAGS.has(parent.name);
}

/** What no reader sees inside `root` (scripts, styles, hidden parts), added to `drop`. */
function dropUnseen(root: Element, ctx: PruneContext, drop: Set<Element>): void {
  walkElements(root, (el) => {
    if (!SILENT.has(el.name) && !ctx.stats.hidden.has(el)) return true;
    drop.add(el);
    return false;
  });
}

/**
 * The last resort keeps what names and counts judged chrome, but a short line whose words are
 * chrome ("Kommentieren", "You must be logged in to comment") is no content on any page.
 */
function isChromeWords(el: Element, s: Stats, ctx: PruneContext): boolean {
  return s.text > 0 && s.text <= SHORT_BLOCK && isLine(el, s) && isChromeLine(el, ctx);
}

function isChrome(el: Element, s: Stats, ctx: PruneContext): boolean {
  const tag = furnitureTag(el);
  // A task list's box stays: the Markdown writes it as the item's "[x]".
  if (CHROME_TAGS.has(tag)) return !isTaskBox(el);
  if (ctx.wide && WIDE_CHROME.has(tag)) return true;
  // A region read whole is a listing's, whose captions, dates and link lines are its items;
  // on a page that says it is an article they are the story's chrome as in a chosen article.
  const listing = ctx.wide && !ctx.story;
  if (tag === "footer" && s.text < ctx.contentText * 0.3) return true;
  const role = el.attribs.role;
  if (role && CHROME_ROLES.has(role)) return true;
  if (s.text === 0) return false;
  if (el.name === "a" && s.text <= 2 && isPermalink(el, ctx.stats.textOf(el))) return true;
  // Much of the content is never chrome, whatever its names say.
  const small = s.text < ctx.contentText * 0.3;
  if (
    small && isUnlikely(el) && !anchoredSection(el, ctx.stats) &&
    !anchoredHeading(el, ctx.stats) && !isHeadingText(el) && !isStoryHeader(el, s)
  ) {
    return true;
  }
  if (small && !listing && isContactNote(el)) return true;
  // Captions and credits of images and galleries are no part of the body (no benchmark's
  // body holds them); the images themselves stay.
  if (small && namedLikeCaption(el) && !isEntryByline(el, s, ctx) && !showsItems(el, s, ctx)) {
    return true;
  }
  if (s.images === 0 && s.text <= CAPTION_MAX && isCreditCaption(el, ctx)) return true;
  if (
    !listing && s.images === 0 && s.text <= CAPTION_MAX &&
    (captionOfImage(el, ctx) || namesSay(el, IMAGE_TEXT_NAMES))
  ) {
    return true;
  }
  if (small && isSocialEmbed(el)) return true;
  if (!listing && s.text <= DATE_MAX && isMarkedDate(el, ctx)) return true;
  if (s.text <= COUNT_MAX && isNamedCount(el, ctx)) return true;
  if (ctx.story && isKicker(el, s, ctx.stats)) return true;
  if (small && isPosterDetails(el)) return true;
  if (isHoverCard(el, s)) return true;
  // The outermost short block is read, and each line (a block holding no other) again: a
  // byline or a date inside a short header that is not chrome as a whole. Words inline in a
  // line of prose ("... month. <b>Source:</b> the survey ...") are part of that line.
  if (
    s.text <= SHORT_BLOCK && (!readShort(el) || isLine(el, s)) &&
    !(INLINE.has(el.name) && inProse(el)) && isChromeLine(el, ctx)
  ) {
    return true;
  }
  if (small && SECTIONS.has(el.name) && headedAsChrome(el, ctx)) return true;
  if (small && !listing && SECTIONS.has(el.name) && isTeaserList(el, ctx)) return true;
  if (small && !ctx.wide && SECTIONS.has(el.name) && isEmbeddedStory(el, s, ctx.stats)) {
    return true;
  }
  // The publisher's lines around the story: appeals and disclosures, the author's bio (a
  // listing's or a region's too, but for the bio: a team page's people are its content).
  // A line longer than an appeal is read by its opening only (most are prose), once for both.
  let opening: string | undefined;
  if (s.text <= (ctx.wide ? APPEAL_LINE : BIO_LINE) && isLine(el, s)) {
    const short = s.text <= APPEAL_LINE;
    const text = short ? ctx.stats.textOf(el) : (opening = openingOf(el));
    if (
      (short && ctx.stats.judged(isAppeal, text)) ||
      (!listing && ctx.stats.judged(isAuthorBio, text))
    ) {
      return true;
    }
    if (
      !listing && ctx.stats.judged(introducesPerson, text) &&
      isSetOff(el, short ? text : ctx.stats.textOf(el))
    ) {
      return true;
    }
  }
  if (s.text > APPEAL_LINE && s.text <= APPEAL_BOX && isLine(el, s)) {
    // The opening is read first: most such paragraphs are the story's own.
    if (opensWithAppeal(opening ?? openingOf(el)) && isAppealBox(ctx.stats.textOf(el))) {
      return true;
    }
  }
  // A longer line that opens with chrome words and is mostly a link: "Read more: <a long
  // headline>", "Lesen Sie auch: ...".
  if (
    s.text > SHORT_BLOCK && s.text <= LINKED_LINE_MAX && linkDensity(s) >= 0.5 && isLine(el, s) &&
    ctx.stats.judged(startsAsChrome, ctx.stats.textOf(el))
  ) {
    return true;
  }
  if (!listing && LINE_TAGS.has(el.name) && s.text <= 200 && linkDensity(s) >= 0.9) return true;
  if (!listing && isLinkedAside(el, s, ctx)) return true;
  if (!listing && isLabelledLink(el, s, ctx)) return true;
  // A line of links set apart by bars or dots ("About Us | Privacy Policy | Help"): a menu.
  if (
    s.text <= LINKED_LINE_MAX && linkDensity(s) >= MENU_LINKS && isLine(el, s) &&
    MENU_LINE.test(ctx.stats.textOf(el))
  ) {
    return true;
  }
  if (
    TITLE_HEADINGS.has(el.name) && s.text <= 300 &&
    repeatsTitle(ctx.stats.textOf(el), pageTitles(el))
  ) {
    // The first is the title line the views start with; a second only repeats it.
    if (ctx.titleSeen) return true;
    ctx.titleSeen = true;
  }
  if (ctx.cleanConditionally && CONDITIONAL.has(el.name) && small) {
    // A listing's item cards are its content, whatever a story's counts say of each.
    if (!ctx.story && isItemCard(el, ctx.stats)) return false;
    if (isEntryByline(el, s, ctx)) return false;
    return conditionallyChrome(el, s, ctx);
  }
  return false;
}

/**
 * A short block whose words are chrome. A date alone is chrome as a line of its own (an
 * article's dateline), not inline in a longer block (a forum post's date beside its author).
 */
function isChromeLine(el: Element, ctx: PruneContext): boolean {
  const text = ctx.stats.textOf(el);
  // Bylines and dates are chrome around one article, content in a listing of many.
  if (CELLS.has(el.name) || ctx.wide) {
    return ctx.stats.judged(isChromeWithoutBylines, text) && !namesSection(el, ctx);
  }
  if ((!INLINE.has(el.name) || standsAlone(el)) && isDateLine(text)) return true;
  return ctx.stats.judged(isChromeText, text) && !namesSection(el, ctx);
}

/** isChromeText with bylines read as content: one function, for PageStats.judged to key on. */
function isChromeWithoutBylines(text: string): boolean {
  return isChromeText(text, false);
}

/** What a permalink shows: a pilcrow, a section sign, a hash, a link or anchor emoji. */
const PERMALINK_TEXT = /^[\s\u00b6\u00a7#\u{1f517}\u2693\ufe0e\ufe0f]+$/u;

/**
 * A heading's or a definition's link to itself (Sphinx's and MkDocs' `¶`, GitHub's `#`): a
 * symbol linking to an anchor of the page, which a reader of the text cannot follow.
 */
function isPermalink(el: Element, text: string): boolean {
  const href = el.attribs.href;
  return href !== undefined && href.length > 1 && href.startsWith("#") &&
    PERMALINK_TEXT.test(text);
}

/** Shortest paragraph after a heading that makes the heading its section's title. */
const HEADED_PROSE = 80;

/**
 * A heading right above a paragraph of prose names a section of the content, whatever its
 * words ("Get started", "Support", "Comments", "Disclaimer: ..."): the paragraph is kept, and
 * without its heading the section loses its title. A section of chrome goes whole
 * (headedAsChrome), heading and all.
 */
function headsProse(el: Element, ctx: PruneContext): boolean {
  return proseUnder(el, ctx) !== null;
}

/** The paragraph of prose right under a heading, or null. */
function proseUnder(el: Element, ctx: PruneContext): Element | null {
  if (!HEADING_TAGS.has(el.name)) return null;
  let next = el.next;
  while (next && next.type === "text") next = next.next;
  if (!next || next.type !== "tag") return null;
  const paragraph = next as Element;
  if (paragraph.name !== "p") return null;
  const s = ctx.stats.of(paragraph);
  const headed = s.text >= HEADED_PROSE && linkDensity(s) < 0.25 &&
    !ctx.stats.judged(startsAsChrome, ctx.stats.textOf(paragraph));
  return headed ? paragraph : null;
}

/** What a paragraph asking the readers for money names: a donation, a tip, a patron. */
const DONATION = /\b(?:donat\w*|spende\w*|patreon|ko-fi|buy (?:us|me) a coffee)\b/iu;

/**
 * A heading over prose, or a short block that opens with one ("Support" over how to reach the
 * team): a section of the content, though its first word opens chrome lines. A box whose
 * paragraph asks for donations ("Support us") is the publisher's appeal all the same. Only
 * the block's children up to its first with text are read.
 */
function namesSection(el: Element, ctx: PruneContext): boolean {
  if (headsProse(el, ctx)) return true;
  if (INLINE.has(el.name) || HEADING_TAGS.has(el.name)) return false;
  const lead = firstWithText(el, ctx);
  const paragraph = lead && proseUnder(lead, ctx);
  return !!paragraph && !DONATION.test(ctx.stats.textOf(paragraph));
}

/** Least share of its words a link takes in a set-off line pointing to another story. */
const ASIDE_LINKS = 0.25;

/**
 * A short paragraph wholly in italics whose words are largely a link, between the story's
 * paragraphs: a pointer to another story ("<em>Former commander: <a>Russia is a threat</a>
 * </em>"), set off from the story's voice.
 */
function isLinkedAside(el: Element, s: Stats, ctx: PruneContext): boolean {
  if (!LINE_TAGS.has(el.name) || s.text > SHORT_BLOCK || linkDensity(s) < ASIDE_LINKS) {
    return false;
  }
  const text = ctx.stats.textOf(el);
  return !text.startsWith("(") && isSetOff(el, text);
}

/** Longest label before a colon that introduces a link to elsewhere. */
const LINK_LABEL_MAX = 40;
/** Three words or more, none of them an address. */
const HEADLINE_WORDS = /^(?!.*(?:\/\/|www\.))\S+\s+\S+\s+\S+/u;

/**
 * A line made of a short label, a colon and one link that is the rest of the line
 * ("Dowiedz się więcej: <a>Another story</a>", "Lesen Sie auch: <a>...</a>"): a pointer to
 * another page in any language, built the same way by every CMS. Prose that links a phrase
 * has words after or around the link; this line has only the label before it.
 */
function isLabelledLink(el: Element, s: Stats, ctx: PruneContext): boolean {
  if (s.text > LINKED_LINE_MAX || linkDensity(s) < 0.5 || !isLine(el, s)) return false;
  const text = ctx.stats.textOf(el);
  const colon = text.indexOf(":");
  if (colon < 1 || colon > LINK_LABEL_MAX) return false;
  const label = text.slice(0, colon + 1);
  const rest = text.slice(colon + 1).trim();
  // The link is the whole rest of the line (its text neither shorter nor longer than the rest)
  // and reads as a headline, words, not an address or a file ("Website: https://...").
  return /\p{L}/u.test(label) && label.split(/\s+/).length <= 5 &&
    HEADLINE_WORDS.test(rest) && s.linkText >= rest.length * 0.9 &&
    s.linkText <= rest.length + 2;
}

/**
 * A box inside the story that holds another story: its own headline, then its own byline, then
 * paragraphs (a newspaper's earlier report set beside the new one). The story's own byline is
 * in its header, above the body, with no paragraphs under it in the same box. Only the box's
 * first two elements (and a wrapper's first) are read.
 */
function isEmbeddedStory(el: Element, s: Stats, stats: PageStats): boolean {
  if (s.paragraphs < 2) return false;
  const heading = elementFrom(el.firstChild);
  if (!heading || !HEADING_TAGS.has(heading.name)) return false;
  let next = elementFrom(heading.next);
  if (next && next.name !== "p") next = elementFrom(next.firstChild);
  return next !== null && next.name === "p" && isByline(stats.textOf(next));
}

/** Fewest paragraphs, and least text, of a block named as a header that is the story's. */
const HEADER_PARAGRAPHS = 3;
const HEADER_PROSE = 400;

/**
 * A block named as a header ("listicle-header", "article-header") holding paragraphs of prose
 * with few links: the story's own opening (its intro above a listicle's items), not the page's
 * masthead, which holds links and a line or two.
 */
function isStoryHeader(el: Element, s: Stats): boolean {
  return s.paragraphs >= HEADER_PARAGRAPHS && s.text >= HEADER_PROSE && linkDensity(s) < 0.2 &&
    namesSay(el, HEADER_NAMES);
}

const HEADER_NAMES = anyWordOf(new Set(["header"]));

/** Emphasis that sets a whole line apart from the story's voice. */
const EMPHASIS = new Set(["em", "i"]);

/**
 * Whether a line is set off from the prose around it: wholly in parentheses, or its only
 * child an emphasis (an editor's note, an author's bio in italics). One pass over its children.
 */
function isSetOff(el: Element, text: string): boolean {
  if (text.startsWith("(") && text.endsWith(")")) return true;
  let emphasis = false;
  for (const child of el.children) {
    spend();
    if (child.type === "text") {
      if (/\S/.test((child as unknown as { data: string }).data)) return false;
    } else if (child.type === "tag") {
      if (emphasis || !EMPHASIS.has((child as Element).name)) return false;
      emphasis = true;
    }
  }
  return emphasis;
}

/**
 * An <address> in an article: its author's or page's contact and filing note ("notes.html -
 * Created ... - Last Modified ..."), not the story (a contact page's addresses are a region).
 */
function isContactNote(el: Element): boolean {
  return el.name === "address";
}

/** An inline element between blocks (or alone in its parent): read as a line of its own. */
function standsAlone(el: Element): boolean {
  return alone(el.prev, "prev") && alone(el.next, "next");
}

function alone(node: ChildNode | null, way: "prev" | "next"): boolean {
  while (node && node.type === "text" && !/\S/.test((node as unknown as { data: string }).data)) {
    node = node[way];
  }
  if (!node) return true;
  if (node.type === "text") return false;
  return "name" in node && (BLOCKS.has(node.name as string) || node.name === "br");
}

/** A block holding no other block: one line of the page. Lines never nest. */
function isLine(el: Element, s: Stats): boolean {
  return !s.hasBlock && !INLINE.has(el.name) && !CELLS.has(el.name);
}

/**
 * Marks short blocks already read: inside one whose words were not chrome, each descendant's
 * text is part of it, and reading each again would make nesting quadratic. The mark is a
 * property of the element (a WeakSet's entries cost far more to add and to collect).
 */
const SHORT_READ = Symbol("shortRead");

type Marked = ParentNode & { [SHORT_READ]?: true };

function readShort(el: Element): boolean {
  const parent = el.parent as Marked | null;
  const seen = parent !== null && parent[SHORT_READ] === true;
  (el as Marked)[SHORT_READ] = true;
  return seen;
}

/**
 * Whether `el` starts with a line naming it as chrome ("Related posts", "Most popular"): the
 * first child holding text, then its first, a few levels down, until a line short enough to be
 * a heading. Each element's children are scanned only up to the first with text.
 */
function headedAsChrome(el: Element, ctx: PruneContext): boolean {
  const own = ctx.stats.of(el);
  if (own.text > SECTION_MAX && linkDensity(own) < 0.3) return false;
  let lead: Element | null = el;
  for (let depth = 0; lead && depth < LEAD_DEPTH; depth++) {
    lead = firstWithText(lead, ctx);
    if (!lead) return false;
    const s = ctx.stats.of(lead);
    if (s.text <= 60) {
      const text = ctx.stats.textOf(lead);
      return s.text < ctx.stats.of(el).text &&
        (isChromeHeading(text) || (ctx.story === true && isSponsorHeading(text)));
    }
  }
  return false;
}

/** The first APPEAL_OPENING characters or so of an element's visible text, read no further. */
function openingOf(el: Element): string {
  const parts: string[] = [];
  let length = 0;
  const stack: ChildNode[] = [...el.children].reverse();
  while (stack.length && length < APPEAL_OPENING) {
    spend();
    const node = stack.pop()!;
    if (node.type === "text") {
      const data = (node as unknown as { data: string }).data;
      parts.push(data);
      length += data.length;
    } else if ("children" in node && !SILENT.has((node as Element).name)) {
      const children = (node as Element).children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** Fewest teasers that make a block a list of other pages' teasers. */
const TEASERS = 3;
/** Shortest and longest text read as one teaser (a headline and the opening of a story). */
const TEASER_MIN = 40;
const TEASER_MAX = 400;

/**
 * Cards of other stories under the article, each a link and the opening words of its story
 * cut off ("When Tamara signed up to be a tutor, she didn't imagine…"): a list of teasers,
 * whatever heads it. Most of the block's children are such cards.
 */
function isTeaserList(el: Element, ctx: PruneContext): boolean {
  // By the counts first: enough children shaped as cards (some link, a teaser's length)
  // before any card's text is read.
  let shaped = 0;
  let others = 0;
  for (const s of childrenWithText(el, ctx.stats)) {
    if (isCardShaped(s)) shaped++;
    else others++;
  }
  if (shaped < TEASERS || shaped < others * 2) return false;
  let cards = 0;
  for (const child of el.children) {
    spend();
    if (child.type !== "tag" || !isCardShaped(ctx.stats.of(child as Element))) continue;
    if (endsCutOff(child as Element, ctx)) cards++;
    else if (++others > cards + shaped) return false;
  }
  return cards >= TEASERS && cards >= others * 2;
}

/** A teaser's shape by its counts: a link in it, a headline and an opening's length. */
function isCardShaped(s: Stats): boolean {
  return s.linkText > 0 && s.text >= TEASER_MIN && s.text <= TEASER_MAX;
}

/**
 * Whether an element's text ends on an ellipsis, or on one and a short "Read more" link: the
 * opening of a text cut off.
 */
function endsCutOff(el: Element, ctx: PruneContext): boolean {
  return CUT_OFF.test(ctx.stats.textOf(el));
}

/** An ellipsis (WordPress's "[…]" too), then at most a few words of a "more" link. */
const CUT_OFF = /(?:…|\.\.\.)\]?(?:\s*[\p{L}\s›»→>]{0,30})?$/u;

function firstWithText(el: Element, ctx: PruneContext): Element | null {
  for (const child of el.children) {
    if (child.type === "text" && /\S/.test((child as unknown as { data: string }).data)) {
      return null;
    }
    if (!("name" in child)) continue;
    const s = ctx.stats.of(child as Element);
    if (s.text > 0 && !ctx.stats.hidden.has(child as Element)) return child as Element;
  }
  return null;
}

/**
 * Text beside an image in a box made for it (a <figure>, or a block named as an image's):
 * its caption or credit, however the box names it ("img-metadata", "dida", "imginline").
 */
function captionOfImage(el: Element, ctx: PruneContext): boolean {
  if (el.name === "figcaption") return !explainsFigure(el, ctx);
  const box = el.parent as Element | null;
  if (!box || !("name" in box)) return false;
  const s = ctx.stats.of(box);
  if (s.images === 0 || s.text > CAPTION_MAX) return false;
  // A card that is one link (a listing's entry) has a title, not a caption.
  if (box.name === "a") return false;
  return box.name === "figure" || namesSay(box, IMAGE_BOX);
}

/** Words that, with an image's word in one name, name the text about it ("image-description"). */
const ABOUT_IMAGE = new Set(["description", "desc", "caption", "credit", "credits", "source"]);

/** A block named as an image's description or credit ("show-feature-image-description"). */
const IMAGE_TEXT_NAMES: NamesTest = (tokens) =>
  tokens.some((words) =>
    words.some((w) => IMAGE_WORDS.has(w)) && words.some((w) => ABOUT_IMAGE.has(w))
  );

const IMAGE_BOX: NamesTest = (tokens) =>
  tokens.some((words) => words.some((w) => IMAGE_WORDS.has(w)) && !words.includes("no"));

/**
 * Whether a <figcaption> explains its figure rather than credits or describes a photo: the
 * figure is a drawing (a PNG, SVG or GIF image: a diagram, a chart, a screenshot) or no image
 * at all (a listing, a table, a quote), and the caption names no credit. A photo's caption (a
 * JPEG's, as news photos are) is no part of the story's text.
 */
function explainsFigure(caption: Element, ctx: PruneContext): boolean {
  if (CREDIT.test(ctx.stats.textOf(caption))) return false;
  const figure = imageBoxOf(caption, ctx);
  if (!figure) return true;
  let drawing = FIGURES.get(figure);
  if (drawing === undefined) FIGURES.set(figure, drawing = isDrawing(figure));
  return drawing;
}

/** How many levels above a caption its image's box is looked for. */
const CAPTION_BOX_DEPTH = 3;

/**
 * The box holding a caption's image: its <figure>, or (a <figcaption> in a <div> standing in
 * for one: "visual__image", styled wrappers) the nearest of a few ancestors holding an image,
 * short enough to be the image and its caption alone. Null when no image is near.
 */
function imageBoxOf(caption: Element, ctx: PruneContext): Element | null {
  let box = caption.parent as Element | null;
  for (let depth = 0; box && "name" in box && depth < CAPTION_BOX_DEPTH; depth++) {
    if (box.name === "figure") return box;
    const s = ctx.stats.of(box);
    if (s.text > CAPTION_MAX) return null;
    if (s.images > 0) return box;
    box = box.parent as Element | null;
  }
  return null;
}

/**
 * A caption that only credits its photo: no text of any page, a listing's cards included
 * (where other captions may be the cards' titles).
 */
function isCreditCaption(el: Element, ctx: PruneContext): boolean {
  return el.name === "figcaption" && CREDIT_FOR.test(ctx.stats.textOf(el));
}

/**
 * A photo's credit as a whole caption: the photographer, "for", the publication ("KATIE DOE
 * FOR TASTE OF HOME", "Jane Doe for The Paper"). Names are capitalised: "Tips for beginners"
 * is none, and a caption in title case is still a drawing's only under a PNG or SVG.
 */
const CREDIT_FOR =
  /^\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){1,3}\s+(?:for|FOR|für|pour|para)\s+\p{Lu}[\p{L}.'&-]*(?:\s+(?:\p{Lu}[\p{L}.'&-]*|of|the|de|la))*$/u;

/** Read once per figure, however many captions it holds. */
const FIGURES = new WeakMap<Element, boolean>();

function isDrawing(figure: Element): boolean {
  const img = select(figure, "img, picture source");
  if (!img) return true;
  // A lazy image's `src` is a placeholder (a data: pixel); its real file is in the lazy sources.
  const { src, srcset, "data-src": lazy, "data-srcset": lazySet } = img.attribs;
  const file = [src, lazy, lazySet, srcset].find((v) => v && !v.startsWith("data:")) ?? "";
  return DRAWING.test(file);
}

/**
 * The poster's details beside a forum post (XenForo's `message-userDetails`, vBulletin's
 * `userinfo`, `user-stats`): join date, post count, title, not the thread's words. (vBulletin's
 * `postbit` is the whole post, details and words.)
 */
function isPosterDetails(el: Element): boolean {
  return namesSay(el, POSTER_NAMES);
}

const POSTER_NAMES: NamesTest = (tokens) =>
  tokens.some((words) =>
    (words.includes("user") || words.includes("poster") || words.includes("author")) &&
    words.some((w) => POSTER_WORDS.has(w))
  ) || tokens.some((words) => words.includes("userinfo"));

/**
 * Text a link in running prose holds for a hover card (a preview of the person, company or
 * page linked): a block inside the link, or an element named as a tooltip or popover. The
 * link's own words stay; a card that is one link (a listing's entry) is no link in prose.
 */
function isHoverCard(el: Element, s: Stats): boolean {
  const link = el.parent as Element | null;
  if (!link || link.name !== "a" || s.text > HOVER_MAX || !inProse(link)) return false;
  return BLOCKS.has(el.name) || namesSay(el, HOVER_NAMES);
}

const HOVER_NAMES = anyWordOf(HOVER_WORDS);

/** Whether a link sits in a line of prose: words of the line beside it, not alone in a box. */
function inProse(link: Element): boolean {
  for (const way of ["prev", "next"] as const) {
    const node = link[way];
    if (node?.type === "text" && /\p{L}/u.test((node as unknown as { data: string }).data)) {
      return true;
    }
  }
  return false;
}

/** Longest text read as a date. */
const DATE_MAX = 60;

/**
 * A date marked as one (a <time>, an element named "date"), not inline in a sentence: the
 * story's dateline, wherever the markup puts it (in its title line, beside its kicker).
 */
function isMarkedDate(el: Element, ctx: PruneContext): boolean {
  if (el.name !== "time" && !namesSay(el, DATE_NAMES)) return false;
  return !inProse(el) && isDateLine(ctx.stats.textOf(el));
}

const DATE_NAMES = anyWordOf(new Set(["date", "datum", "fecha", "data"]));

/** Longest text read as a count. */
const COUNT_MAX = 12;
/** A number alone ("1334", "3.2k"). */
const COUNT_TEXT = /^\d[\d.,]*\s*[km]?$/i;
const COUNT_NAMES = anyWordOf(
  new Set(["count", "counter", "votes", "vote", "likes", "upvotes", "claps", "reactions"]),
);
/** Levels climbed looking for a table around a count: a table's numbers are its data. */
const COUNT_TABLE_DEPTH = 6;

/**
 * A number alone in an element named as a count ("js-vote-count", `itemprop=upvoteCount`): the
 * votes, likes or comments of a post, not its words. In a table, a number is data.
 */
function isNamedCount(el: Element, ctx: PruneContext): boolean {
  if (!COUNT_TEXT.test(ctx.stats.textOf(el)) || (INLINE.has(el.name) && !standsAlone(el))) {
    return false;
  }
  if (!namesSay(el, COUNT_NAMES) && !/count$/i.test(el.attribs.itemprop ?? "")) return false;
  let up: Element | null = el;
  for (let depth = 0; up && depth < COUNT_TABLE_DEPTH; depth++, up = parentElement(up)) {
    if (CELLS.has(up.name)) return false;
  }
  return true;
}

/** A post of a social network embedded in the page (a tweet, an Instagram or Facebook post). */
function isSocialEmbed(el: Element): boolean {
  if (!namesSay(el, SOCIAL_NAMES)) return false;
  return el.name === "blockquote" || namesSay(el, EMBED_NAMES);
}

const SOCIAL_NAMES = anyWordOf(SOCIAL);
const EMBED_NAMES = anyWordOf(EMBED_WORDS);

function namedLikeCaption(el: Element): boolean {
  return namesSay(el, CAPTION_NAMES) || namesSay(el, READING_TIME_NAMES);
}

const CAPTION_NAMES = anyWordOf(CAPTION_WORDS);

/**
 * A block named like a gallery that holds headings, on a page that is no story: a store's or
 * a service's tiles, each headed by its item's name, not a picture's caption. A carousel is
 * not read so: it shows one slide at a time, and loops by repeating its slides in the markup.
 */
function showsItems(el: Element, s: Stats, ctx: PruneContext): boolean {
  return !ctx.story && s.headingText > 0 && !namesSay(el, CAROUSEL_NAMES);
}

const CAROUSEL_NAMES = anyWordOf(new Set(["carousel", "slideshow", "slider", "swiper", "slide"]));

/** Names of a byline or a date: one line of them names an entry's author or its date. */
const BYLINE_NAMES = anyWordOf(
  new Set(["author", "byline", "dateline", "timestamp", "published", "updated"]),
);

/**
 * One line named as an author or a date, inside one of a listing's entries: the entry's own
 * (a ranked book's "by Jane Austen"), not the byline of the one story on the page.
 */
function isEntryByline(el: Element, s: Stats, ctx: PruneContext): boolean {
  return !ctx.story && !!ctx.entries && (!s.hasBlock || isListOfLines(el, ctx.stats)) &&
    namesSay(el, BYLINE_NAMES) && inEntry(el, ctx.entries.root, ctx.stats, ctx.entries.cache);
}

/** Most names a list of an entry's authors holds. */
const AUTHORS_MAX = 8;

/** A short list whose items are lines (an entry's authors, one a line). */
function isListOfLines(el: Element, stats: PageStats): boolean {
  if ((el.name !== "ul" && el.name !== "ol") || el.children.length > AUTHORS_MAX * 2 + 1) {
    return false;
  }
  return el.children.every((child) =>
    child.type !== "tag" ||
    ((child as Element).name === "li" && !stats.of(child as Element).hasBlock)
  );
}

/** A story's reading time beside its date ("readingTime", "read-time", "post-readtime"). */
const READING_TIME_NAMES: NamesTest = (tokens) =>
  tokens.some((words) =>
    words.includes("readtime") || words.includes("readingtime") ||
    ((words.includes("read") || words.includes("reading")) && words.includes("time"))
  );

/** Least text outside links that makes a list item a line of prose, not a link. */
const ITEM_WORDS = 25;

/**
 * Whether most items of a list say something beside their links ("Official website: <link>",
 * "Read my review <link>here</link>"): a list of the story's points that cite pages, not a list
 * of links to other pages. One pass over the list's children, on the counts.
 */
function wordsBesideLinks(list: Element, ctx: PruneContext): boolean {
  const items = childrenWithText(list, ctx.stats);
  let worded = 0;
  for (const s of items) if (s.text - s.linkText >= ITEM_WORDS) worded++;
  return items.length > 0 && worded * 2 >= items.length;
}

/** The counts of an element's children that hold text, in order: one pass over its children. */
function childrenWithText(el: Element, stats: PageStats): Stats[] {
  const counted: Stats[] = [];
  for (const child of el.children) {
    spend();
    if (child.type !== "tag") continue;
    const s = stats.of(child as Element);
    if (s.text > 0) counted.push(s);
  }
  return counted;
}

/** Fewest items of a list that a form beside it (servings, sort order) does not sink. */
const LISTED = 5;

/**
 * A block holding a list and, beside it, a small form with all the block's inputs: a recipe's
 * ingredients with a servings field. Readability's inputs rule would drop the list with the
 * form. One pass over the block's children, for blocks already holding inputs and items.
 */
function isListWithControl(el: Element, ctx: PruneContext): boolean {
  const s = ctx.stats.of(el);
  if (s.listItems < LISTED) return false;
  let form = false;
  let list = false;
  for (const child of el.children) {
    spend();
    if (child.type !== "tag") continue;
    const c = ctx.stats.of(child as Element);
    const name = (child as Element).name;
    if (name === "form" && c.inputs === s.inputs) form = true;
    else if ((name === "ul" || name === "ol") && c.listItems >= LISTED) list = true;
  }
  return form && list;
}

/** Most text beside a heading read as the heading's own (an edit link, an anchor). */
const HEADING_ASIDE_MAX = 20;

/**
 * A heading's wrapper holding little beside it ("History [edit]", an anchor) is the heading:
 * Readability's link tests would drop MediaWiki's section headings. A heading that is a link
 * (a teaser's headline) is no such heading.
 */
function isHeadingWrapper(el: Element, s: Stats, ctx: PruneContext): boolean {
  if (s.headingText === 0 || s.text - s.headingText > HEADING_ASIDE_MAX) return false;
  // The heading first, what belongs to it after (a player's or a card's title comes last).
  const first = el.children.find(isTag);
  // A section's heading, not the page's title (h1), which the views write on their own.
  if (!first || first.name === "h1" || !HEADING_TAGS.has(first.name)) return false;
  const heading = ctx.stats.of(first);
  return heading.text > 0 && heading.linkText === 0;
}

/** Readability's _cleanConditionally, on counts. */
function conditionallyChrome(el: Element, s: Stats, ctx: PruneContext): boolean {
  const weight = classWeight(el);
  const score = ctx.scores.get(el) ?? 0;
  // Lists and headings start below zero: only a name that says chrome sinks them.
  if (weight < 0 && weight + score < 0) return true;
  if (s.commas >= 10) return false;
  if (isHeadingWrapper(el, s, ctx)) return false;
  const isList = el.name === "ul" || el.name === "ol" || el.name === "dl";
  const density = linkDensity(s);
  const paragraphs = s.paragraphs;
  const listItems = s.listItems - 100;
  const headingDensity = s.text ? s.headingText / s.text : 0;
  if (s.images > 1 && paragraphs / s.images < 0.5) return true;
  if (!isList && listItems > paragraphs) return true;
  if (s.inputs > Math.floor(paragraphs / 3) && !isListWithControl(el, ctx)) return true;
  if (
    !isList && headingDensity < 0.9 && s.text < 25 && (s.images === 0 || s.images > 2) &&
    density > 0
  ) {
    return true;
  }
  if (!isList && weight < 25 && density > 0.2) return true;
  // A list of links the story's sentence introduces is the sentence's points.
  if (isList && density > 0.5 && isIntroducedList(el, ctx.stats)) return false;
  if (weight >= 25 && density > 0.5) return true;
  if (isList && density > 0.5 && !wordsBesideLinks(el, ctx)) return true;
  if ((s.embeds === 1 && s.text < 75) || s.embeds > 1) return true;
  return false;
}
