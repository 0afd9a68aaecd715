/** url: og:url -> twitter:url -> rel=canonical -> x-default alternate -> the page URL. */
import { resolveUrl } from "./resolve.ts";
import { type Context, firstOf, meta, type Rule } from "./rules.ts";

const link = (match: (rel: string[], hreflang: string) => boolean): Rule => ({ rec }) =>
  rec.links.filter((l) => match(l.rel, l.hreflang)).map((l) => l.href);

export const urlRules: Rule[] = [
  meta("og:url"),
  meta("twitter:url"),
  link((rel) => rel.includes("canonical")),
  link((rel, lang) => rel.includes("alternate") && lang === "x-default"),
  ({ url }) => url,
];

export const url = (ctx: Context): string =>
  firstOf(urlRules, (v, c) => resolveUrl(v, c), ctx) ?? ctx.url;
