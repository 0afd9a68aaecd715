/** description: og -> twitter -> meta -> microdata -> JSON-LD -> Dublin Core -> first paragraph. */
import { type Context, firstOf, itemMeta, ld, meta, type Rule, rulesFor } from "./rules.ts";
import { cleanText, smartQuotes } from "./text.ts";

/** "NEW YORK — Text" dateline prefixes are dropped. */
const LOCATION = /^[A-Z\s]+\s+[-\u2014\u2013]\s+/;
const MIN_PARAGRAPH = 80;

// A real paragraph: long enough, a sentence, not a cookie banner or a byline.
const firstParagraph: Rule = ({ rec }) =>
  (rec.texts.get("paragraph") ?? []).filter((p) => {
    const t = p.replace(/\s+/g, " ").trim();
    return t.length >= MIN_PARAGRAPH && /[.!?…。]/.test(t) && !/cookie|javascript/i.test(t);
  });

export const descriptionRules: Rule[] = [
  meta("og:description"),
  meta("twitter:description"),
  meta("description"),
  itemMeta("description"),
  ld("articleBody"),
  ld("description"),
  meta("dc.description"),
  meta("dcterms.description"),
  meta("sailthru.description"),
  firstParagraph,
];

export function normaliseDescription(value: unknown): string | null {
  const s = cleanText(value);
  if (s === null) return null;
  return smartQuotes(s.replace(LOCATION, "")).replace(/\s?\.\.\.?$/, "…") || null;
}

export const description = (ctx: Context): string | null =>
  firstOf(rulesFor(ctx, "description", descriptionRules), normaliseDescription, ctx);
