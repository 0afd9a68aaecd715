/** title: og -> twitter -> <title> -> JSON-LD headline -> microdata -> title-ish headings. */
import { type Context, firstOf, firstText, itemMeta, ld, meta, type Rule } from "./rules.ts";
import { cleanText, smartQuotes } from "./text.ts";
import { siteNameOf, stripSiteName } from "./site_name.ts";

const itempropText = (prop: string): Rule => ({ rec }) =>
  rec.itemprops.filter((i) => i.props.includes(prop) && !i.inAuthor).map((i) =>
    i.attrs.content ?? i.text
  );

export const titleRules: Rule[] = [
  meta("og:title"),
  meta("twitter:title"),
  meta("sailthru.title"),
  // <title> often carries the site name: "Story | Site" -> "Story"
  (ctx) => ctx.rec.title === null ? undefined : stripSiteName(ctx.rec.title, siteNameOf(ctx)),
  ld("headline"),
  itemMeta("headline"),
  itempropText("headline"),
  meta("dc.title"),
  meta("dcterms.title"),
  firstText("postTitle"),
  firstText("entryTitle"),
  firstText("h1TitleLink"),
  firstText("h1Title"),
  firstText("h1"),
];

export function normaliseTitle(value: unknown): string | null {
  const s = cleanText(value);
  return s === null ? null : smartQuotes(s);
}

export const title = (ctx: Context): string | null => firstOf(titleRules, normaliseTitle, ctx);
