/**
 * title: citation -> og -> twitter -> <title> -> JSON-LD headline -> microdata -> Dublin Core
 * -> Parse.ly -> title-ish headings.
 */
import { parsely } from "./parsely.ts";
import {
  type Context,
  firstOf,
  firstText,
  itemMeta,
  ld,
  meta,
  type Rule,
  rulesFor,
} from "./rules.ts";
import { cleanText, smartQuotes } from "./text.ts";
import { siteNameOf, stripSiteName } from "./site_name.ts";

const itempropText = (prop: string): Rule => ({ rec }) =>
  rec.itemprops.filter((i) => i.props.includes(prop) && !i.inAuthor).map((i) =>
    i.attrs.content ?? i.text
  );

export const titleRules: Rule[] = [
  // a scholarly page's citation_title is the work's title, without the site's decorations
  meta("citation_title"),
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
  parsely("title", "title"),
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

export const title = (ctx: Context): string | null =>
  firstOf(rulesFor(ctx, "title", titleRules), normaliseTitle, ctx);
