/**
 * publisher: citation -> JSON-LD -> og:site_name -> app names -> Dublin Core -> logo alt ->
 * <title>.
 */
import { type Context, firstOf, firstText, ld, meta, type Rule, rulesFor } from "./rules.ts";
import { siteFromTitle } from "./site_name.ts";
import { cleanText } from "./text.ts";

const MAX_PUBLISHER = 100;

/** meta whose name contains `part` (application-name, msapplication-name...). */
const metaContaining = (part: string): Rule => ({ rec }) => {
  for (const [key, values] of rec.meta) if (key.includes(part)) return values;
  return undefined;
};

export const publisherRules: Rule[] = [
  // a scholarly page names its publisher, then the journal
  meta("citation_publisher"),
  meta("citation_journal_title"),
  // Inline JSON-LD first; a publisher reached through an @id reference is usually the legal
  // entity ("X Media LLC") where og:site_name is the name the site shows.
  ld("publisher.name", { refs: false }),
  meta("og:site_name"),
  metaContaining("application-name"),
  metaContaining("app-title"),
  metaContaining("app_name"),
  meta("publisher"),
  meta("dc.publisher"),
  meta("dcterms.publisher"),
  meta("twitter:app:name:iphone"),
  meta("twitter:app:name:ipad"),
  meta("twitter:app:name:googleplay"),
  firstText("logoId"),
  firstText("logoClass"),
  firstText("brandLink"),
  ({ rec }) => rec.images.logoLinkAlt,
  ({ rec }) => rec.images.logoAlt,
  ld("publisher.name"),
  ({ rec }) => rec.title === null ? undefined : siteFromTitle(rec.title),
];

export function normalisePublisher(value: unknown): string | null {
  const s = cleanText(value);
  return s === null || s.length > MAX_PUBLISHER ? null : s;
}

export const publisher = (ctx: Context): string | null =>
  firstOf(rulesFor(ctx, "publisher", publisherRules), normalisePublisher, ctx);
