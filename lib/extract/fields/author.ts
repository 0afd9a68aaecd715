/**
 * author: citation metadata -> JSON-LD -> meta -> microdata -> rel=author -> author/byline
 * elements. Element guesses must look like a name (two words) since class*="author" matches
 * widely. Three passes keep the weak answers for last: a person first; then a name equal to the
 * site's own (meta author="The Site" often stands in for the byline); then Twitter handles
 * (@name, twitter:creator).
 */
import { toIsoDate } from "./date_parse.ts";
import { parsely } from "./parsely.ts";
import {
  type Context,
  firstOf,
  firstText,
  ld,
  memo,
  meta,
  type Normaliser,
  type Rule,
  rulesFor,
} from "./rules.ts";
import { cleanText, looksLikeUrl, removeBy, smartQuotes } from "./text.ts";

const MAX_AUTHOR = 128;
const TWO_WORDS = /^\S+\s+\S+/;
const HANDLE = /^\s*@[\w.]+\s*$/;

/** Link and label texts that are interface, not a name. */
const INTERFACE = [
  /^(?:view|see|read|browse|visit|show)\b.*\b(?:posts?|articles?|stories|archives?|profiles?|bio)\b/i,
  /^(?:follow|subscribe|contact|e-?mail|message|share)\b/i,
  /^(?:more|all|other)\s+(?:by|from|posts|articles|stories)\b/i,
  /^(?:(?:posted|written|published|authored|reported|edited)\s+)?by:?$/i,
  /^authors?:?$/i,
];

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
  meta("citation_author"),
  ldAuthors,
  ld("brand.name"),
  meta("author"),
  meta("article:author"),
  meta("dc.creator"),
  meta("dcterms.creator"),
  meta("sailthru.author"),
  parsely("author", "authors"),
  parsely("author", "author"),
  itempropAuthor,
  itempropAuthorText,
  firstText("relAuthor"),
  strict(firstText("authorLink")),
  strict(firstText("authorInLink")),
  strict(firstText("authorHref")),
  firstText("screenname"),
  strict(firstText("authorClass")),
  strict(bylineNotDate),
];

/** A Twitter handle: only when nothing else names anyone. */
const handleRules: Rule[] = [meta("twitter:creator")];

/** A name: no URL, no interface text ("View author archive", "Follow @x"), "By" taken off. */
export function normaliseAuthor(value: unknown): string | null {
  const s = cleanText(value);
  if (s === null || s.length > MAX_AUTHOR || looksLikeUrl(s)) return null;
  const name = removeBy(smartQuotes(s));
  if (name === "" || INTERFACE.some((re) => re.test(name))) return null;
  return name;
}

/** The names the site goes by (og:site_name, application-name, JSON-LD publisher), lower-cased. */
function siteNames(ctx: Context): Set<string> {
  return memo(ctx, "site-names", () => {
    const names = [
      ...(ctx.rec.meta.get("og:site_name") ?? []),
      ...(ctx.rec.meta.get("application-name") ?? []),
      ...ctx.ld.values("publisher.name"),
    ];
    return new Set(names.map((n) => cleanText(n)?.toLowerCase()).filter((n) => n !== undefined));
  });
}

const notHandle = (raw: unknown) => !(typeof raw === "string" && HANDLE.test(raw));

const personOnly: Normaliser<string> = (raw, ctx) => {
  if (!notHandle(raw)) return null;
  const name = normaliseAuthor(raw);
  return name !== null && !siteNames(ctx).has(name.toLowerCase()) ? name : null;
};

const noHandle: Normaliser<string> = (raw) => notHandle(raw) ? normaliseAuthor(raw) : null;

export const author = (ctx: Context): string | null => {
  const rules = rulesFor(ctx, "author", authorRules);
  return firstOf(rules, personOnly, ctx) ?? firstOf(rules, noHandle, ctx) ??
    firstOf([...rules, ...handleRules], normaliseAuthor, ctx);
};
