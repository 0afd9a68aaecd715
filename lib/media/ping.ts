/**
 * `ping`: verification and probing of the media URLs of a payload. Each field tries its
 * candidates in order (at most 3) until one answers 2xx with a fitting type; fields run at
 * once, a few probes at a time per host, at most 16 probes per request, all within the
 * request's deadline. A failing candidate is dropped silently; nothing here throws.
 */
import type { Fetcher, TargetHeaders } from "../fetch/types.ts";
import { HostLimiter, ProbeBudget } from "./_limit.ts";
import type { AdmissionPool } from "../util/admission.ts";
import { type ProbeContext, probeMedia } from "./probe.ts";
import { unverifiedMedia } from "./unverified.ts";
import { MEDIA_FIELDS, type MediaField, type MediaObject } from "../util/payload_types.ts";
import { httpUrl } from "../util/target_url.ts";

export interface PingOptions {
  fetcher: Fetcher;
  /** false for a field: no probe, {url, type from extension}. */
  verify: Record<MediaField, boolean>;
  /** Fill palette fields for image and logo (reads the whole image). */
  palette?: boolean;
  /** The request deadline. */
  signal?: AbortSignal;
  /** Sent with every probe, e.g. User-Agent. */
  headers?: Record<string, string>;
  /** The caller's `headers.*`: sent with probes of the target's own origin only. */
  targetHeaders?: TargetHeaders;
  /** linkpeek's own asset URL prefix: never probed. */
  skipPrefix?: string;
  /** The page's URL: its origin's /favicon.ico is the logo's last candidate when verified. */
  pageUrl?: string | null;
  /** The request's probe budget; default one of MAX_PROBES of its own. */
  budget?: ProbeBudget;
  /** Concurrent probes per host; default 3. */
  perHost?: number;
  /** Deadline of one probe fetch in ms; default 5000. */
  probeTimeoutMs?: number;
  /** Time one palette decode may take, ms; default probeTimeoutMs. */
  paletteTimeoutMs?: number;
  /** Admission of palette decodes (the service's); default a pool of their own module's. */
  palettes?: AdmissionPool;
}

export const MAX_CANDIDATES = 3;
/** Probes one request may make. */
export const MAX_PROBES = 16;

function favicon(pageUrl: string | null | undefined): string | null {
  const page = pageUrl ? httpUrl(pageUrl) : null;
  return page ? `${page.origin}/favicon.ico` : null;
}

/** Distinct http(s) candidates, at most 3; a logo keeps a place for the site's favicon. */
function candidateList(field: MediaField, urls: string[], options: PingOptions): string[] {
  const list = [...new Set(urls.filter((url) => httpUrl(url) !== null))];
  const icon = field === "logo" ? favicon(options.pageUrl) : null;
  if (!icon) return list.slice(0, MAX_CANDIDATES);
  const others = list.filter((url) => url !== icon).slice(0, MAX_CANDIDATES - 1);
  return [...others, icon];
}

async function resolveField(
  field: MediaField,
  urls: string[],
  options: PingOptions,
  ctx: ProbeContext,
): Promise<MediaObject | null> {
  if (!options.verify[field]) {
    const first = urls[0];
    return first === undefined ? null : unverifiedMedia(field, first);
  }
  for (const url of candidateList(field, urls, options)) {
    if (ctx.signal?.aborted) return null;
    if (options.skipPrefix && url.startsWith(options.skipPrefix)) {
      return unverifiedMedia(field, url);
    }
    const media = await probeMedia(field, url, ctx);
    if (media) return media;
  }
  return null;
}

export async function resolveMedia(
  candidates: Record<MediaField, string[]>,
  options: PingOptions,
): Promise<Record<MediaField, MediaObject | null>> {
  const ctx: ProbeContext = {
    fetcher: options.fetcher,
    budget: options.budget ?? new ProbeBudget(MAX_PROBES),
    limiter: new HostLimiter(options.perHost ?? 3),
    signal: options.signal,
    headers: options.headers,
    targetHeaders: options.targetHeaders,
    timeoutMs: options.probeTimeoutMs ?? 5000,
    palette: options.palette ?? false,
    paletteTimeoutMs: options.paletteTimeoutMs,
    palettes: options.palettes,
  };
  const results = await Promise.all(
    MEDIA_FIELDS.map((field) =>
      resolveField(field, candidates[field] ?? [], options, ctx).catch(() => null)
    ),
  );
  return Object.fromEntries(MEDIA_FIELDS.map((field, i) => [field, results[i] ?? null])) as Record<
    MediaField,
    MediaObject | null
  >;
}
