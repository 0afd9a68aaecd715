/**
 * url: og:url -> twitter:url -> rel=canonical -> x-default alternate -> Parse.ly -> the page
 * URL.
 */
import { parsely } from "./parsely.ts";
import { resolveUrl } from "./resolve.ts";
import { type Context, firstOf, meta, type Rule, rulesFor } from "./rules.ts";

const link = (match: (rel: string[], hreflang: string) => boolean): Rule => ({ rec }) =>
  rec.links.filter((l) => match(l.rel, l.hreflang)).map((l) => l.href);

export const urlRules: Rule[] = [
  meta("og:url"),
  meta("twitter:url"),
  link((rel) => rel.includes("canonical")),
  link((rel, lang) => rel.includes("alternate") && lang === "x-default"),
  parsely("link", "link"),
  ({ url }) => url,
];

/** An absolute http(s) URL, resolved against the page. */
export const normaliseUrl = (value: unknown, ctx: Context): string | null => resolveUrl(value, ctx);

export const url = (ctx: Context): string =>
  firstOf(rulesFor(ctx, "url", urlRules), normaliseUrl, ctx) ?? ctx.url;
