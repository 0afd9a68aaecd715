/**
 * date: the page's last known date, as Microlink reports it: modified before published, then
 * Dublin Core and meta dates, <time>, dated bylines and classes, and finally the URL path.
 */
import { dateFromUrl, toIsoDate } from "./dates.ts";
import { allTexts, type Context, firstOf, itemMeta, ld, meta, type Rule } from "./rules.ts";

/** meta whose name/property contains `part` (article:published_time, og:updated_time...). */
const metaContaining = (part: string): Rule => ({ rec }) => {
  const out: string[] = [];
  for (const [key, values] of rec.meta) if (key.includes(part)) out.push(...values);
  return out;
};

const itempropDate = (match: (prop: string) => boolean, attr: string): Rule => ({ rec }) => {
  const el = rec.itemprops.find((i) => i.props.some(match));
  return el?.attrs[attr];
};

const timeDatetime = (withItemprop: boolean): Rule => ({ rec }) =>
  rec.times.filter((t) => t.datetime && (!withItemprop || t.itemprop.includes("date")))
    .map((t) => t.datetime)[0];

export const dateRules: Rule[] = [
  // modified
  ld("dateModified"),
  metaContaining("modified_time"),
  itempropDate((p) => p.includes("datemodified"), "content"),
  // published
  ld("datePublished"),
  ld("dateCreated"),
  metaContaining("published_time"),
  itempropDate((p) => p === "datepublished", "content"),
  itempropDate((p) => p === "datepublished", "datetime"),
  itempropDate((p) => p === "datepublished", "title"),
  meta("og:updated_time"),
  meta("dc.date"),
  meta("dc.date.issued"),
  meta("dcterms.date"),
  meta("dcterms.created"),
  meta("dcterms.modified"),
  meta("sailthru.date"),
  meta("parsely-pub-date"),
  meta("pubdate"),
  meta("publish-date"),
  meta("publish_date"),
  allTexts("publishClass"),
  // anything dated
  meta("date"),
  itempropDate((p) => p.includes("date"), "content"),
  itempropDate((p) => p.includes("date"), "title"),
  itemMeta("uploaddate"),
  timeDatetime(true),
  timeDatetime(false),
  allTexts("byline"),
  allTexts("dateId"),
  allTexts("dateClass"),
  allTexts("timeClass"),
  ({ rec }) => rec.times.map((t) => t.text),
  ({ url }) => dateFromUrl(url),
];

export const date = (ctx: Context): string | null => firstOf(dateRules, (v) => toIsoDate(v), ctx);
