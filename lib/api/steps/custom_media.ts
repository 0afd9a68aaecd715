/**
 * Media values of custom `data` rules (`type: image|logo|audio|video`), completed as the default
 * media fields are: each URL probed (type, size, dimensions, duration) within the request's
 * probe budget, shared with the default fields. A value whose probe fails gives way to its
 * rule's next fallback (the next rule's or selector's value, probed in turn); with none that
 * passes, it keeps what its URL tells (url, type from the extension, the rest null).
 */
import { type CustomMedia, singleMedia } from "../../extract/custom/mod.ts";
import { HostLimiter } from "../../media/_limit.ts";
import { probeMedia } from "../../media/probe.ts";
import { MAX_PROBES } from "../../media/ping.ts";
import { ASSET_PREFIX } from "../assets.ts";
import { type StepContext, targetHeaders } from "./context.ts";

/** Deadline of one probe fetch, as for the default fields. */
const PROBE_TIMEOUT_MS = 5000;
/** Concurrent probes per host, as for the default fields. */
const PER_HOST = 3;

export async function verifyCustomMedia(
  context: StepContext,
  media: CustomMedia[],
): Promise<void> {
  const { params, services, signal } = context;
  const skipPrefix = `${services.config.publicUrl}${ASSET_PREFIX}`;
  // Past the budget a probe would only find it spent: no more are started than it holds.
  const wanted = media.filter(({ kind, value }) =>
    params.ping[kind] && !value.url.startsWith(skipPrefix)
  ).slice(0, MAX_PROBES);
  if (wanted.length === 0) return;
  const ctx = {
    fetcher: services.fetcher,
    budget: context.probes,
    limiter: new HostLimiter(PER_HOST),
    signal,
    targetHeaders: targetHeaders(context),
    timeoutMs: PROBE_TIMEOUT_MS,
    palette: params.palette,
    paletteTimeoutMs: services.config.paletteTimeoutMs,
    palettes: services.palettes,
  };
  /** Completes one value in place; false when its probe failed (a value not probed passes). */
  const probed = async ({ kind, value }: CustomMedia): Promise<boolean> => {
    if (!params.ping[kind] || value.url.startsWith(skipPrefix)) return true;
    const media = await probeMedia(kind, value.url, ctx).catch(() => null);
    if (media) Object.assign(value, media);
    return media !== null;
  };
  const settle = async (item: CustomMedia): Promise<void> => {
    if (await probed(item) || !item.fallback) return;
    const { holder, key, next } = item.fallback;
    for (const later of next) {
      const media = singleMedia(later);
      if (media && !await probed(media)) continue;
      holder[key] = later.value;
      if (!media) await Promise.all(later.media.map(settle));
      return;
    }
  };
  await context.timings.time("probe", () => Promise.all(wanted.map(settle)));
}
