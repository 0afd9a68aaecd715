/**
 * The compact record one streaming pass over a page leaves behind: only what the field rules
 * read. Attribute names are lower-cased; texts are raw (the field normalisers clean them).
 */

export interface LinkTag {
  /** rel tokens, lower-cased. */
  rel: string[];
  href: string;
  type: string;
  sizes: string;
  hreflang: string;
}

/** An element with an `itemprop` attribute (microdata). */
export interface ItemProp {
  /** itemprop tokens, lower-cased. */
  props: string[];
  tag: string;
  /** content / src / href / datetime / title attributes, when present. */
  attrs: Record<string, string>;
  text: string;
  /** Inside an element whose itemprop contains "author". */
  inAuthor: boolean;
}

export interface MediaTag {
  tag: "audio" | "video" | "source";
  /** "audio" or "video" for <source>, the enclosing media element. */
  parent: string;
  src: string;
  type: string;
  poster: string;
}

export interface TimeTag {
  datetime: string;
  itemprop: string;
  text: string;
}

/** Names of the CSS-like probes whose first texts are kept (see collect.ts). */
export type Probe =
  | "postTitle"
  | "entryTitle"
  | "h1TitleLink"
  | "h1Title"
  | "h1"
  | "relAuthor"
  | "authorLink"
  | "authorInLink"
  | "authorHref"
  | "screenname"
  | "authorClass"
  | "byline"
  | "dateId"
  | "dateClass"
  | "timeClass"
  | "publishClass"
  | "logoId"
  | "logoClass"
  | "brandLink"
  | "paragraph";

/**
 * A platform's own probe (lib/extract/platforms/): keeps an attribute, or the text, of the
 * elements it matches, optionally only inside another element, the way a CSS descendant
 * selector would ("[data-testid=tweetPhoto] img").
 */
export interface ElementProbe {
  name: string;
  match: (tag: string, attrs: Record<string, string>) => boolean;
  /** Only elements inside one this accepts (at any depth) count. */
  within?: (tag: string, attrs: Record<string, string>) => boolean;
  /** The attribute to keep; without it the element's text (a <script>'s raw text). */
  attr?: string;
  /** How many values to keep, in document order (default 1). */
  keep?: number;
}

export interface PageRecord {
  /** meta name= and property= values, keys lower-cased, contents in document order. */
  meta: Map<string, string[]>;
  /** meta itemprop= values, keys lower-cased. */
  itemMeta: Map<string, string[]>;
  links: LinkTag[];
  title: string | null;
  jsonld: string[];
  htmlLang: string | null;
  /** href of the first <base> with a non-empty one. */
  base: string | null;
  /**
   * Whether any <base> has an href attribute (empty or not): without one, a DOM of the page
   * has no base to look for (see baseUrl).
   */
  baseHref: boolean;
  times: TimeTag[];
  itemprops: ItemProp[];
  /** First non-empty texts per probe (a few each). */
  texts: Map<Probe, string[]>;
  /**
   * img src (or srcset) by situation: first in <article>, first in #content, alt*=author, first
   * visible; site chrome (logos, icons, avatars, images in header/nav/footer, tiny images) is
   * never kept for these.
   */
  images: {
    article: string[];
    content: string[];
    authorAlt: string | null;
    any: string | null;
    itempropLogo: string | null;
    inItempropLogo: string | null;
    /** alt of an img inside a [class*=logo] element (inside a link first). */
    logoLinkAlt: string | null;
    logoAlt: string | null;
  };
  media: MediaTag[];
  /** a[href] values that look like audio files (by extension). */
  audioLinks: string[];
  /** What each platform probe kept, by probe name. */
  probed: Map<string, string[]>;
}
