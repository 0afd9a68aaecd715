/**
 * A product page's own description as the page states it in schema.org JSON-LD (a `Product`'s
 * `description`), and the block of the page that shows it: the anchor of the content, so that
 * the product's description and details win over a long list of reviews under them.
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { rawText, textOf, walkElements } from "../dom/mod.ts";
import { anyWordOf, namesSay } from "./classes.ts";
import { BLOCKS, type PageStats, SILENT } from "./stats.ts";

/** Shorter descriptions are taglines, found in too many places to anchor anything. */
const MIN_DESCRIPTION = 80;
/** Bounds on the work: JSON-LD read, objects visited, blocks compared. */
const MAX_SCRIPT = 500_000;
const MAX_OBJECTS = 2_000;
const MAX_BLOCKS = 2_000;
/** A block's text compared: its first characters, long enough to be the description's. */
const PREFIX = 60;
const PRODUCT_TYPE = /^(?:Product|ProductGroup|ProductModel|IndividualProduct)$/;

const normal = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

export interface StatedProduct {
  /** The longest description of a product, normalised, or null when none is long enough. */
  description: string | null;
}

/** The schema.org product the page's JSON-LD states, or null when it states none. */
export function statedProduct(scripts: Element[]): StatedProduct | null {
  let best = "";
  let product = false;
  let visited = 0;
  const visit = (value: unknown) => {
    if (++visited > MAX_OBJECTS || !value || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const object = value as Record<string, unknown>;
    const type = object["@type"];
    const types = Array.isArray(type) ? type : [type];
    if (types.some((t) => typeof t === "string" && PRODUCT_TYPE.test(t))) {
      product = true;
      const description = object.description;
      if (typeof description === "string" && description.length > best.length) {
        best = description;
      }
    }
    for (const key of ["@graph", "hasVariant", "mainEntity", "itemOffered"]) visit(object[key]);
  };
  for (const script of scripts) {
    const text = rawText(script);
    if (text.length > MAX_SCRIPT || !text.includes("Product")) continue;
    try {
      visit(JSON.parse(text));
    } catch {
      // Malformed JSON-LD states nothing.
    }
  }
  if (!product) return null;
  // Descriptions may carry markup: its tags are not the text a reader sees. A `<` never closed
  // ends at the next `<`, so that a text of them is read once.
  const text = normal(best.replace(/<[^<>]*>/g, " "));
  return { description: text.length >= MIN_DESCRIPTION ? text : null };
}

/**
 * The first block of running text (no block inside it) whose opening words are the stated
 * description's, or null. Only blocks long enough to tell are compared, and only so many.
 */
export function describedBlock(
  root: Element,
  stats: PageStats,
  description: string,
): Element | null {
  let found: Element | null = null;
  let compared = 0;
  walkElements(root, (el) => {
    if (found || compared > MAX_BLOCKS) return false;
    if (SILENT.has(el.name) || stats.hidden.has(el)) return false;
    const own = stats.of(el);
    if (own.text < PREFIX) return false;
    if (own.hasBlock || !BLOCKS.has(el.name)) return true;
    spend();
    compared++;
    const opening = normal(textOf(el).slice(0, PREFIX * 4)).slice(0, PREFIX);
    if (opening.length >= PREFIX && description.includes(opening)) found = el;
    return false;
  });
  return found;
}

const REVIEW_PROP = /^(?:reviews?|aggregateRating)$/i;
const REVIEW_WORDS = new Set(["review", "reviews", "ratings"]);
const REVIEW_NAMES = anyWordOf(REVIEW_WORDS);

/**
 * On a product page, the shoppers' reviews and ratings: blocks marked as schema.org reviews or
 * named for them. Never one holding `keep` (the described block).
 */
export function reviewBlocks(root: Element, stats: PageStats, keep: Element | null): Element[] {
  const holding = new Set<Element>();
  for (let up: Element | null = keep; up; up = up.parent as Element | null) {
    spend();
    holding.add(up);
  }
  const found: Element[] = [];
  walkElements(root, (el) => {
    if (SILENT.has(el.name) || stats.hidden.has(el)) return false;
    if (holding.has(el) || !isReview(el)) return true;
    found.push(el);
    return false;
  });
  return found;
}

function isReview(el: Element): boolean {
  const { itemprop, itemtype } = el.attribs;
  if (itemprop && REVIEW_PROP.test(itemprop)) return true;
  if (itemtype && /\/Review$/.test(itemtype)) return true;
  return namesSay(el, REVIEW_NAMES);
}
