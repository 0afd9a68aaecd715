/**
 * One streaming pass over the HTML (htmlparser2's tokenizer, no DOM) that keeps only what the
 * field rules read. Pages reach megabytes; a tree of one takes ~3 times as long to build and
 * holds ~11 bytes of heap a character (bench/extract_bench.ts; a 2 MB page: 23 MB).
 */
import { LinearParser, type ParseListener } from "./html_parser.ts";
import type { ElementProbe, ItemProp, PageRecord, Probe } from "./record.ts";

// Ancestor facts a frame inherits from its parents.
const ARTICLE = 1;
const CONTENT = 2;
const ITEM_AUTHOR = 4;
const CLASS_AUTHOR = 8;
const H1_TITLE = 16;
const LOGO_CLASS = 32;
const LOGO_LINK = 64;
const ITEM_LOGO = 128;
const SVG = 256;
const MEDIA_AUDIO = 512;
const MEDIA_VIDEO = 1024;
const CHROME = 2048;

/** Non-empty texts kept per probe; rules use the first, a few more help fallbacks. */
const PROBE_KEEP = 3;
const PARAGRAPH_KEEP = 8;
const TEXT_CAP = 1000;
const JSONLD_CAP = 2_000_000;
const ITEMPROP_KEEP = 400;
const AUDIO_EXT = /\.(mp3|m4a|aac|ogg|oga|opus|wav|flac|mpga|weba)(?:[?#]|$)/i;
/** Words in an image's class, id, alt or file name that mark site chrome, not content. */
const CHROME_WORDS = new Set(
  "logo logos icon icons favicon avatar avatars sprite sprites badge badges pixel".split(" "),
);
/** Images declared smaller than this on both sides (pixels) are icons, not the page's image. */
const MIN_CONTENT_SIDE = 100;
/** An author's page: `/author/` in a link, in any case. */
const AUTHOR_PATH = /\/author\//i;
/** Hosts whose profile links are social accounts: their link text is never a byline. */
const SOCIAL_HOST =
  /(?:^|\.)(?:twitter\.com|x\.com|facebook\.com|instagram\.com|linkedin\.com|tiktok\.com|youtube\.com|threads\.net|bsky\.app|pinterest\.com|mastodon\.social)$/i;

interface Capture {
  text: string;
  cap: number;
  done: (text: string) => void;
}

/**
 * `data` added to a capture, up to its cap exactly: the text kept does not depend on how the
 * parser cut the page's text into events.
 */
function append(c: Capture, data: string): void {
  const room = c.cap - c.text.length;
  if (room > 0) c.text += data.length > room ? data.slice(0, room) : data;
}

interface Frame {
  tag: string;
  flags: number;
  /** Bits of the platform probes whose `within` element this frame is inside. */
  within: number;
  captures: Capture[] | null;
}

/** Words of an attribute value: split on non-letters and at camelCase humps, lower-cased. */
function words(value: string): string[] {
  return value.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/);
}

const chromeWords = (value: string | undefined) =>
  value !== undefined && words(value).some((w) => CHROME_WORDS.has(w));

/** The path of a URL (or a relative path), without scheme, host and query. */
const pathOf = (src: string) =>
  src.split(/[?#]/)[0]!.replace(/^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*/i, "");

/** A declared size (width and height, in pixels) under MIN_CONTENT_SIDE on both sides. */
function declaredSmall(a: Record<string, string>): boolean {
  const px = (side: string | undefined) =>
    side !== undefined && /^\s*\d+(?:\.\d+)?\s*(?:px)?\s*$/i.test(side) ? parseFloat(side) : NaN;
  return px(a.width) < MIN_CONTENT_SIDE && px(a.height) < MIN_CONTENT_SIDE;
}

/**
 * Site chrome: an image in header/nav/footer, declared under 100x100, or whose class, id, alt
 * or path (folders and file name: /icons/share.svg, sprite.png) says logo, icon, avatar, sprite,
 * badge or pixel.
 */
function isChrome(src: string, a: Record<string, string>, flags: number): boolean {
  return !!(flags & CHROME) || declaredSmall(a) || chromeWords(a.class) || chromeWords(a.id) ||
    chromeWords(a.alt) || chromeWords(pathOf(src));
}

function isSocialLink(href: string): boolean {
  const m = /^(?:https?:)?\/\/([^/?#:]+)/i.exec(href.trim());
  return m !== null && SOCIAL_HOST.test(m[1]!);
}

// Most class and id values name none of the words the probes look for; one test skips them all.
const CLASS_HINTS = /author|byline|date|time|publish|logo|title|screenname|brand/i;
const ID_HINTS = /date|logo|content/i;

/** Whitespace-only texts are not "non-empty" for $filter-like probes. */
const blank = (s: string) => s.trim() === "";

/** `token` is one of the whitespace-separated words of `list` (cheap substring test first). */
function hasToken(list: string, token: string): boolean {
  if (!list.includes(token)) return false;
  return list.split(/\s+/).includes(token);
}

export function emptyRecord(): PageRecord {
  return {
    meta: new Map(),
    itemMeta: new Map(),
    links: [],
    title: null,
    jsonld: [],
    htmlLang: null,
    base: null,
    baseHref: false,
    times: [],
    itemprops: [],
    texts: new Map(),
    images: {
      article: [],
      content: [],
      authorAlt: null,
      any: null,
      itempropLogo: null,
      inItempropLogo: null,
      logoLinkAlt: null,
      logoAlt: null,
    },
    media: [],
    audioLinks: [],
    probed: new Map(),
  };
}

function push<K>(map: Map<K, string[]>, key: K, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Parses `html` once and returns the compact record the rules run on; `probes` are the page's
 * platform probes, read in the same pass.
 */
export function collect(html: string, probes: readonly ElementProbe[] = []): PageRecord {
  const collector = recordCollector(probes);
  new LinearParser(collector, PARSER_OPTIONS).end(html);
  return collector.finish();
}

/** The tokenizer's options the record is read with (a DOM parse that feeds it uses the same). */
export const PARSER_OPTIONS = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
} as const;

/** The parser events the record is made of, and the record once the parse has ended. */
export interface RecordCollector extends ParseListener {
  /** The record, unclosed elements closed. */
  finish(): PageRecord;
}

/**
 * The record's reader as parser callbacks, so that one parse can feed it and a DOM at once
 * (parseDocumentWith).
 */
export function recordCollector(probes: readonly ElementProbe[] = []): RecordCollector {
  const rec = emptyRecord();
  const stack: Frame[] = [];
  const active: Capture[] = [];
  // Script contents are skipped, except JSON-LD and scripts a platform probe keeps.
  let rawText: "skip" | "keep" | null = null;
  // one bit per probe with a `within` element (platforms declare a handful, well under 31)
  const withinBits = probes.map((p, i) => p.within ? 1 << i : 0);

  const probeFull = (p: Probe) =>
    (rec.texts.get(p)?.length ?? 0) >= (p === "paragraph" ? PARAGRAPH_KEEP : PROBE_KEEP);

  const start = (frame: Frame, cap: number, done: (text: string) => void) => {
    const c: Capture = { text: "", cap, done };
    (frame.captures ??= []).push(c);
    active.push(c);
  };
  const probe = (frame: Frame, p: Probe) => {
    if (probeFull(p)) return;
    start(frame, p === "paragraph" ? 4 * TEXT_CAP : TEXT_CAP, (text) => {
      if (!blank(text) && !probeFull(p)) push(rec.texts, p, text);
    });
  };

  const runProbes = (frame: Frame, tag: string, a: Record<string, string>) => {
    for (let i = 0; i < probes.length; i++) {
      const p = probes[i]!;
      if (p.within?.(tag, a)) frame.within |= withinBits[i]!;
    }
    for (let i = 0; i < probes.length; i++) {
      const p = probes[i]!;
      if (withinBits[i] && !(frame.within & withinBits[i]!)) continue;
      if ((rec.probed.get(p.name)?.length ?? 0) >= (p.keep ?? 1) || !p.match(tag, a)) continue;
      if (p.attr !== undefined) {
        const v = a[p.attr];
        if (v !== undefined) push(rec.probed, p.name, v);
        continue;
      }
      if (tag === "script") rawText = "keep";
      start(frame, tag === "script" ? JSONLD_CAP : TEXT_CAP, (t) => {
        if (!blank(t) && (rec.probed.get(p.name)?.length ?? 0) < (p.keep ?? 1)) {
          push(rec.probed, p.name, t);
        }
      });
    }
  };

  const open = (tag: string, a: Record<string, string>) => {
    const parent = stack[stack.length - 1];
    let flags = parent ? parent.flags : 0;
    const frame: Frame = { tag, flags, within: parent ? parent.within : 0, captures: null };
    const cls = a.class && CLASS_HINTS.test(a.class) ? a.class.toLowerCase() : "";
    const id = a.id && ID_HINTS.test(a.id) ? a.id.toLowerCase() : "";
    const itemprop = a.itemprop ? a.itemprop.toLowerCase() : "";

    switch (tag) {
      case "meta": {
        const content = a.content;
        if (content === undefined) break;
        // name="dc:title og:title" counts for each name; http-equiv="last-modified" is a date
        const equiv = a["http-equiv"]?.trim().toLowerCase() === "last-modified";
        const keys = `${a.name ?? ""} ${a.property ?? ""} ${equiv ? "last-modified" : ""}`;
        const seen: string[] = [];
        for (const key of keys.toLowerCase().split(/\s+/)) {
          if (key === "" || seen.includes(key)) continue;
          seen.push(key);
          push(rec.meta, key, content);
        }
        if (itemprop) push(rec.itemMeta, itemprop.trim(), content);
        break;
      }
      case "link":
        if (a.href !== undefined) {
          rec.links.push({
            rel: (a.rel ?? "").toLowerCase().split(/\s+/).filter(Boolean),
            href: a.href,
            type: (a.type ?? "").toLowerCase(),
            sizes: a.sizes ?? "",
            hreflang: (a.hreflang ?? "").toLowerCase(),
          });
        }
        break;
      case "html":
        if (rec.htmlLang === null && a.lang) rec.htmlLang = a.lang;
        break;
      case "base":
        if (a.href !== undefined) rec.baseHref = true;
        if (rec.base === null && a.href) rec.base = a.href;
        break;
      case "title":
        if (rec.title === null && !(flags & SVG)) {
          start(frame, TEXT_CAP, (t) => {
            if (rec.title === null) rec.title = t;
          });
        }
        break;
      case "script":
        rawText = "skip";
        if ((a.type ?? "").toLowerCase().trim() === "application/ld+json") {
          rawText = "keep";
          start(frame, JSONLD_CAP, (t) => rec.jsonld.push(t));
        }
        break;
      case "style":
      case "noscript":
      case "template":
        rawText = "skip";
        break;
      case "svg":
        flags |= SVG;
        break;
      case "header":
      case "nav":
      case "footer":
        flags |= CHROME;
        break;
      case "article":
        flags |= ARTICLE;
        break;
      case "time": {
        const time = { datetime: a.datetime ?? "", itemprop, text: "" };
        if (rec.times.length < 20) {
          rec.times.push(time);
          start(frame, 200, (t) => (time.text = t));
        }
        break;
      }
      case "img": {
        // srcset alone is a list of candidates; the image normaliser picks the largest
        const src = a.src || a.srcset;
        if (!src) break;
        const imgs = rec.images;
        const inArticle = flags & ARTICLE && imgs.article.length < 3;
        const inContent = flags & CONTENT && imgs.content.length < 3;
        const authorAlt = imgs.authorAlt === null && /author/i.test(a.alt ?? "");
        const any = imgs.any === null && a["aria-hidden"] !== "true";
        // the chrome test only for an image that would fill a slot
        if ((inArticle || inContent || authorAlt || any) && !isChrome(src, a, flags)) {
          if (inArticle) imgs.article.push(src);
          if (inContent) imgs.content.push(src);
          if (authorAlt) imgs.authorAlt = src;
          if (any) imgs.any = src;
        }
        if (imgs.itempropLogo === null && hasToken(itemprop, "logo")) imgs.itempropLogo = src;
        if (imgs.inItempropLogo === null && flags & ITEM_LOGO) imgs.inItempropLogo = src;
        if (a.alt && flags & LOGO_CLASS) {
          if (imgs.logoLinkAlt === null && flags & LOGO_LINK) imgs.logoLinkAlt = a.alt;
          if (imgs.logoAlt === null) imgs.logoAlt = a.alt;
        }
        break;
      }
      case "audio":
      case "video":
        flags |= tag === "audio" ? MEDIA_AUDIO : MEDIA_VIDEO;
        rec.media.push({
          tag,
          parent: tag,
          src: a.src ?? "",
          type: a.type ?? "",
          poster: a.poster ?? "",
        });
        break;
      case "source":
        if (flags & (MEDIA_AUDIO | MEDIA_VIDEO) && a.src) {
          rec.media.push({
            tag: "source",
            parent: parent?.tag === "audio" || parent?.tag === "video" ? parent.tag : "",
            src: a.src,
            type: a.type ?? "",
            poster: "",
          });
        }
        break;
      case "a": {
        const href = a.href ?? "";
        if (rec.audioLinks.length < 5 && AUDIO_EXT.test(href)) rec.audioLinks.push(href);
        // The host is read only for a link that would be kept as a byline.
        const authorClass = cls.includes("author");
        const authorPath = AUTHOR_PATH.test(href);
        if ((authorClass || flags & CLASS_AUTHOR || authorPath) && !isSocialLink(href)) {
          if (authorClass) probe(frame, "authorLink");
          if (flags & CLASS_AUTHOR) probe(frame, "authorInLink");
          if (authorPath) probe(frame, "authorHref");
        }
        if (cls.includes("screenname")) probe(frame, "screenname");
        if (cls.includes("brand")) probe(frame, "brandLink");
        if (flags & H1_TITLE) probe(frame, "h1TitleLink");
        if (flags & LOGO_CLASS) flags |= LOGO_LINK;
        break;
      }
      case "h1":
        probe(frame, "h1");
        if (cls.includes("title")) {
          probe(frame, "h1Title");
          flags |= H1_TITLE;
        }
        break;
      case "p":
        probe(frame, "paragraph");
        break;
    }

    if (cls) {
      if (hasToken(cls, "post-title")) probe(frame, "postTitle");
      if (hasToken(cls, "entry-title")) probe(frame, "entryTitle");
      if (cls.includes("author")) {
        probe(frame, "authorClass");
        flags |= CLASS_AUTHOR;
      }
      if (cls.includes("byline")) probe(frame, "byline");
      if (cls.includes("date")) probe(frame, "dateClass");
      if (cls.includes("time")) probe(frame, "timeClass");
      if (cls.includes("publish")) probe(frame, "publishClass");
      if (hasToken(cls, "logo")) probe(frame, "logoClass");
      if (cls.includes("logo")) flags |= LOGO_CLASS;
    }
    if (id) {
      if (id.includes("date")) probe(frame, "dateId");
      if (id === "logo") probe(frame, "logoId");
      if (id === "content") flags |= CONTENT;
    }
    if (a.rel && hasToken(a.rel.toLowerCase(), "author") && !isSocialLink(a.href ?? "")) {
      probe(frame, "relAuthor");
    }
    if (itemprop) {
      const props = itemprop.split(/\s+/).filter(Boolean);
      if (rec.itemprops.length < ITEMPROP_KEEP) {
        const attrs: Record<string, string> = {};
        for (const k of ["content", "src", "href", "datetime", "title"]) {
          const v = a[k];
          if (v !== undefined) attrs[k] = v;
        }
        const item: ItemProp = { props, tag, attrs, text: "", inAuthor: !!(flags & ITEM_AUTHOR) };
        rec.itemprops.push(item);
        if (tag !== "meta" && tag !== "link") start(frame, TEXT_CAP, (t) => (item.text = t));
      }
      if (itemprop.includes("author")) flags |= ITEM_AUTHOR;
      if (props.includes("logo")) flags |= ITEM_LOGO;
    }
    if (probes.length) runProbes(frame, tag, a);
    frame.flags = flags;
    stack.push(frame);
  };

  const close = (tag: string) => {
    // htmlparser2 reports implied closes too, so the top frame normally matches.
    let idx = stack.length - 1;
    while (idx >= 0 && stack[idx]!.tag !== tag) idx--;
    if (idx < 0) return;
    while (stack.length - 1 > idx) close(stack[stack.length - 1]!.tag);
    const top = stack.pop()!;
    if (tag === "script" || tag === "style" || tag === "noscript" || tag === "template") {
      rawText = null;
    }
    if (top.captures) {
      for (const c of top.captures) {
        const i = active.lastIndexOf(c);
        if (i !== -1) active.splice(i, 1);
        c.done(c.text);
      }
    }
  };

  return {
    onopentag: open,
    onclosetag: close,
    ontext(data) {
      if (rawText === "skip") return;
      if (rawText === "keep") {
        // only the script's own captures: an element around it must not read code as text
        for (const c of stack[stack.length - 1]?.captures ?? []) append(c, data);
        return;
      }
      for (let i = 0; i < active.length; i++) append(active[i]!, data);
    },
    finish() {
      // Unclosed elements at EOF still hand in what they collected.
      while (stack.length) close(stack[stack.length - 1]!.tag);
      return rec;
    },
  };
}
