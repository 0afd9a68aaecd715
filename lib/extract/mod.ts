/**
 * The extraction engine: one streaming pass collects a compact record of the page, then each
 * field runs its ordered rule list over it (see the per-field files), the rules of the page's
 * platform first (lib/extract/platforms/).
 */
import { audio } from "./fields/audio.ts";
import { author } from "./fields/author.ts";
import { collect } from "./stream/collect.ts";
import type { ElementProbe, PageRecord } from "./stream/record.ts";
import { date } from "./fields/date.ts";
import { description } from "./fields/description.ts";
import { image } from "./fields/image.ts";
import { JsonLd } from "./fields/jsonld.ts";
import { lang } from "./fields/lang.ts";
import { logo } from "./fields/logo.ts";
import { manifestUrl } from "./fields/manifest.ts";
import { platformFor } from "./platforms/mod.ts";
import type { PlatformData } from "./platforms/platform.ts";
import { publisher } from "./fields/publisher.ts";
import { baseFor, resolveUrl } from "./fields/resolve.ts";
import type { Context } from "./fields/rules.ts";
import { title } from "./fields/title.ts";
import { url as canonicalUrl } from "./fields/url.ts";
import { video } from "./fields/video.ts";

// Each field's normaliser, (value, ctx) -> value or null: what a rule's raw value must pass.
export { normaliseAudio } from "./fields/audio.ts";
export { normaliseAuthor } from "./fields/author.ts";
export { normaliseDate } from "./fields/date.ts";
export { normaliseDescription } from "./fields/description.ts";
export { normaliseImage } from "./fields/image.ts";
export { normaliseLang } from "./fields/lang.ts";
export { normaliseLogo } from "./fields/logo.ts";
export { normalisePublisher } from "./fields/publisher.ts";
export { normaliseTitle } from "./fields/title.ts";
export { normaliseUrl } from "./fields/url.ts";
export { normaliseVideo } from "./fields/video.ts";

export interface Extracted {
  title: string | null;
  description: string | null;
  author: string | null;
  publisher: string | null;
  /** ISO 8601 with milliseconds, e.g. 2017-06-29T00:00:00.000Z */
  date: string | null;
  /** ISO 639-1, lower-case */
  lang: string | null;
  /** canonical absolute URL, falling back to the page URL */
  url: string;
  /** absolute candidate URLs, best first, deduped, at most 5 */
  image: string[];
  logo: string[];
  audio: string[];
  video: string[];
  /** href of <link type="application/json+oembed">, absolute */
  oembed: string | null;
  /** href of <link rel="manifest">, absolute: its icons are late logo candidates */
  manifest: string | null;
}

export interface ExtractOptions {
  /** What the platform's endpoint answered for this page (fetchPlatformData), if anything. */
  fetched?: PlatformData | null;
}

/** The shared context the rules read: record, JSON-LD, platform and the URLs to resolve against. */
export function contextFor(html: string, url: string, opts: ExtractOptions = {}): Context {
  return contextOf(collect(html, probesFor(url)), url, opts);
}

/** The element probes of the page's platform, read in the same pass as the record. */
export function probesFor(url: string): readonly ElementProbe[] {
  return platformFor(url)?.probes?.(new URL(url)) ?? [];
}

function contextOf(rec: PageRecord, url: string, opts: ExtractOptions): Context {
  const platform = platformFor(url);
  return {
    rec,
    ld: new JsonLd(rec.jsonld),
    url,
    base: baseFor(url, rec.base),
    platform,
    fetched: opts.fetched ?? null,
    memos: new Map(),
  };
}

function oembed(ctx: Context): string | null {
  const link =
    ctx.rec.links.find((l) =>
      l.type === "application/json+oembed" && l.rel.includes("alternate")
    ) ?? ctx.rec.links.find((l) => l.type === "application/json+oembed");
  return link ? resolveUrl(link.href, ctx) : null;
}

/**
 * Metadata of the page `html` fetched from `url` (no network: a platform endpoint's answer, when
 * the caller fetched one, comes in `opts`).
 */
export function extract(html: string, url: string, opts: ExtractOptions = {}): Extracted {
  return fieldsOf(contextFor(html, url, opts));
}

/**
 * extract() from a record read already (a parse that built the page's DOM too fed it:
 * recordCollector with probesFor(url)).
 */
export function extractRecord(
  rec: PageRecord,
  url: string,
  opts: ExtractOptions = {},
): Extracted {
  return fieldsOf(contextOf(rec, url, opts));
}

function fieldsOf(ctx: Context): Extracted {
  return {
    title: title(ctx),
    description: description(ctx),
    author: author(ctx),
    publisher: publisher(ctx),
    date: date(ctx),
    lang: lang(ctx),
    url: canonicalUrl(ctx),
    image: image(ctx),
    logo: logo(ctx),
    audio: audio(ctx),
    video: video(ctx),
    oembed: oembed(ctx),
    manifest: manifestUrl(ctx),
  };
}
