/**
 * date: the page's last known date, as Microlink reports it: citation dates, modified before
 * published, Dublin Core, Parse.ly and other metadata, <time datetime>, the server's
 * Last-Modified, then dates written in bylines and <time> text, and finally the URL path. A date
 * from body text never beats one from metadata; a date before 1995 or more than a day ahead is
 * not a page's date (a scholarly work or a film may be older: see workDate).
 */
import { dateFromUrl, toIsoDate } from "./date_parse.ts";
import { parsely } from "./parsely.ts";
import {
  allTexts,
  type Context,
  firstOf,
  itemMeta,
  ld,
  memo,
  meta,
  type Rule,
  rulesFor,
} from "./rules.ts";

/** Pages existed from the early nineties on; earlier "publication dates" are something else. */
const EARLIEST = Date.UTC(1995, 0, 1);
const DAY_MS = 86_400_000;

/** A dated work (an article in print, a film), not a page: only the future bound applies. */
export interface WorkDate {
  work: unknown;
}

/** Marks a rule's values as the dates of works, which may predate the web. */
export const workDate = (rule: Rule): Rule => (ctx) => {
  const v = rule(ctx);
  return (Array.isArray(v) ? v : [v]).map((work): WorkDate => ({ work }));
};

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
  // scholarly citation metadata (Highwire/Google Scholar): the work's own dates
  workDate(meta("citation_publication_date")),
  workDate(meta("citation_date")),
  workDate(meta("citation_online_date")),
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
  parsely("pub-date", "pub_date"),
  meta("pubdate"),
  meta("publish-date"),
  meta("publish_date"),
  // anything dated in the markup
  meta("date"),
  itempropDate((p) => p.includes("date"), "content"),
  itempropDate((p) => p.includes("date"), "title"),
  itemMeta("uploaddate"),
  timeDatetime(true),
  timeDatetime(false),
  // <meta http-equiv="last-modified">: often when the page was generated, so late
  meta("last-modified"),
  // body text: bylines, dated classes and ids, <time> text
  allTexts("publishClass"),
  allTexts("byline"),
  allTexts("dateId"),
  allTexts("dateClass"),
  allTexts("timeClass"),
  ({ rec }) => rec.times.map((t) => t.text),
  ({ url }) => dateFromUrl(url),
];

/** Languages whose numeric dates put the month first (05/06/2019 is May 6th). */
const MONTH_FIRST = /^(?:en|en[-_]us|en[-_]ph|fil|fil[-_]ph)$/i;

/**
 * Whether the page reads numeric dates day first, from its declared locale (og:locale, <html
 * lang>, Content-Language); undefined when it declares none.
 */
function readsDayFirst(ctx: Context): boolean | undefined {
  return memo(ctx, "day-first", () => {
    const locale = [
      ctx.rec.meta.get("og:locale")?.[0],
      ctx.rec.htmlLang,
      ctx.rec.meta.get("content-language")?.[0],
    ].find((v): v is string => typeof v === "string" && v.trim() !== "");
    return locale === undefined ? undefined : !MONTH_FIRST.test(locale.trim());
  });
}

/**
 * ISO 8601 for a date the page states, or null: unreadable, more than a day in the future, or
 * before 1995 (unless it dates a work: WorkDate).
 */
export function normaliseDate(value: unknown, ctx: Context): string | null {
  const work = typeof value === "object" && value !== null && "work" in value;
  const raw = work ? (value as WorkDate).work : value;
  const iso = toIsoDate(raw, { dayFirst: readsDayFirst(ctx) });
  if (iso === null) return null;
  const t = Date.parse(iso);
  if (t > Date.now() + DAY_MS || (!work && t < EARLIEST)) return null;
  return iso;
}

export const date = (ctx: Context): string | null =>
  firstOf(rulesFor(ctx, "date", dateRules), normaliseDate, ctx);
