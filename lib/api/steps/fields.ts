/**
 * The fields step: the default fields read from the page (lib/extract/), then its media
 * candidates probed (resolveMedia), with the manifest's icons when the page named too few logos.
 */
import type { Extracted } from "../../extract/mod.ts";
import { fetchPlatformData } from "../../extract/platforms/endpoint.ts";
import { MAX_CANDIDATES, resolveMedia } from "../../media/ping.ts";
import {
  DEFAULT_FIELDS,
  MEDIA_FIELDS,
  type MediaField,
  type MediaObject,
} from "../../util/payload_types.ts";
import { ASSET_PREFIX } from "../assets.ts";
import { manifestIcons } from "../manifest_logo.ts";
import { type StepContext, targetHeaders } from "./context.ts";

/** A platform's endpoint (lib/extract/platforms/) starts beside the page fetch; it is cached. */
export function startPlatformData(context: StepContext): void {
  const { params, services, signal, target } = context;
  if (params.meta !== false) {
    void fetchPlatformData(target.href, { fetcher: services.fetcher, signal });
  }
}

/** The page read once: the default fields, its media candidates, its oEmbed discovery link. */
export async function extractPage(
  context: StepContext,
  page: { html: string; url: string },
): Promise<Extracted> {
  const { params, services, signal } = context;
  const started = performance.now();
  try {
    // Asking again for the final URL costs nothing more when the page did not move.
    const fetched = params.meta === false
      ? null
      : await fetchPlatformData(page.url, { fetcher: services.fetcher, signal });
    return await services.dom.extract(page.html, page.url, { fetched, signal });
  } finally {
    context.timings.add("extract", performance.now() - started);
  }
}

/** The default fields the request keeps, in the contract's order; media filled in later. */
export function defaultFields(extracted: Extracted, keep: Set<string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of DEFAULT_FIELDS) {
    if (!keep.has(field)) continue;
    data[field] = (MEDIA_FIELDS as readonly string[]).includes(field)
      ? null
      : extracted[field as keyof Extracted];
  }
  return data;
}

/** The media fields, each the first candidate that passed its probe (or the first, unprobed). */
export async function mediaFields(
  context: StepContext,
  extracted: Extracted,
  pageUrl: string,
): Promise<Record<MediaField, MediaObject | null>> {
  const { params, services, signal } = context;
  const started = performance.now();
  const off = (field: MediaField) =>
    (field === "audio" && !params.audio) || (field === "video" && !params.video) ||
    (params.meta !== false && !params.meta.has(field));
  const candidates = Object.fromEntries(
    MEDIA_FIELDS.map((field) => [field, off(field) ? [] : extracted[field]]),
  ) as Record<MediaField, string[]>;
  try {
    // Manifest icons are worth a fetch only when the page named too few logos to fill the probes.
    if (
      extracted.manifest && params.ping.logo && !off("logo") &&
      candidates.logo.length < MAX_CANDIDATES
    ) {
      const icons = await manifestIcons(extracted.manifest, {
        fetcher: services.fetcher,
        signal,
        targetHeaders: targetHeaders(context),
      });
      candidates.logo = [...new Set([...candidates.logo, ...icons])];
    }
    // A field that is off is not verified either, so no favicon guess is probed for it.
    const verify = Object.fromEntries(
      MEDIA_FIELDS.map((field) => [field, params.ping[field] && !off(field)]),
    ) as Record<MediaField, boolean>;
    return await resolveMedia(candidates, {
      fetcher: services.fetcher,
      verify,
      palette: params.palette,
      paletteTimeoutMs: services.config.paletteTimeoutMs,
      palettes: services.palettes,
      signal,
      pageUrl,
      skipPrefix: `${services.config.publicUrl}${ASSET_PREFIX}`,
      targetHeaders: targetHeaders(context),
      budget: context.probes,
    });
  } finally {
    context.timings.add("probe", performance.now() - started);
  }
}
