/**
 * author: JSON-LD -> meta -> microdata -> rel=author -> author/byline elements -> twitter.
 * Element guesses must look like a name (two words) since class*="author" matches widely.
 */
import { toIsoDate } from "./dates.ts";
import { type Context, firstOf, firstText, ld, meta, type Rule } from "./rules.ts";
import { cleanText, looksLikeUrl, removeBy, smartQuotes } from "./text.ts";

const MAX_AUTHOR = 128;
const TWO_WORDS = /^\S+\s+\S+/;

/** Only values that read like a name of at least two words. */
const strict = (rule: Rule): Rule => (ctx) => {
  const v = rule(ctx);
  return typeof v === "string" && TWO_WORDS.test(v.trim()) ? v : undefined;
};

/** JSON-LD author names; several authors read "A and B". */
const ldAuthors: Rule = ({ ld }) => {
  for (const node of ld.nodes) {
    const authors = ([] as unknown[]).concat(ld.deref(node.author) ?? []);
    const found = authors.map((a) => {
      const r = ld.deref(a) as Record<string, unknown> | string;
      return typeof r === "string" ? r : typeof r?.name === "string" ? r.name : undefined;
    }).filter((n): n is string => typeof n === "string" && n.trim() !== "");
    if (found.length) return found.length > 1 ? found.join(" and ") : found[0];
  }
  return undefined;
};

const itempropAuthor: Rule = ({ rec }) => {
  const named = rec.itemprops.find((i) => i.inAuthor && i.props.includes("name"));
  if (named) return named.attrs.content ?? named.text;
  return undefined;
};

const itempropAuthorText: Rule = ({ rec }) => {
  const el = rec.itemprops.find((i) => i.props.some((p) => p.includes("author")));
  return el ? el.attrs.content ?? el.text : undefined;
};

const bylineNotDate: Rule = ({ rec }) => {
  const text = rec.texts.get("byline")?.[0];
  return text !== undefined && toIsoDate(text) === null ? text : undefined;
};

export const authorRules: Rule[] = [
  ldAuthors,
  ld("brand.name"),
  meta("author"),
  meta("article:author"),
  meta("dc.creator"),
  meta("dcterms.creator"),
  meta("sailthru.author"),
  meta("parsely-author"),
  itempropAuthor,
  itempropAuthorText,
  firstText("relAuthor"),
  strict(firstText("authorLink")),
  strict(firstText("authorInLink")),
  strict(firstText("authorHref")),
  firstText("screenname"),
  strict(firstText("authorClass")),
  strict(bylineNotDate),
  meta("twitter:creator"),
];

export function normaliseAuthor(value: unknown): string | null {
  const s = cleanText(value);
  if (s === null || s.length > MAX_AUTHOR || looksLikeUrl(s)) return null;
  const name = removeBy(smartQuotes(s));
  return name === "" ? null : name;
}

export const author = (ctx: Context): string | null => firstOf(authorRules, normaliseAuthor, ctx);
