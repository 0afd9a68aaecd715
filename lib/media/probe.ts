/**
 * One ping probe: is this URL a reachable file of the field's kind? HEAD first; a ranged GET
 * then reads the header bytes (type, dimensions, duration), and stands in for HEAD where HEAD
 * is refused. Every fetch goes through the guarded Fetcher and counts against the budget.
 */
import {
  type Fetcher,
  type FetchOptions,
  type FetchResult,
  targetHeaderOptions,
  type TargetHeaders,
} from "../fetch/types.ts";
import type { MediaField, MediaObject } from "../util/payload_types.ts";
import type { HostLimiter, ProbeBudget } from "./_limit.ts";
import { describeMedia } from "./describe.ts";
import { mediaDuration, mp4MoovOffset } from "./duration/mod.ts";
import { imagePaletteAsync } from "./palette_async.ts";
import type { AdmissionPool } from "../util/admission.ts";
import { prettyDuration } from "./pretty.ts";
import { kindOfType, mimeOf, typeFromBytes } from "./sniff.ts";

/** Header bytes read by a ranged GET: enough for every header lib/media parses. */
export const PROBE_BYTES = 65536;

export interface ProbeContext {
  fetcher: Fetcher;
  budget: ProbeBudget;
  limiter: HostLimiter;
  signal?: AbortSignal;
  /** Sent with every probe (e.g. User-Agent). */
  headers?: Record<string, string>;
  /** The caller's `headers.*`: sent with probes of the target's own origin only. */
  targetHeaders?: TargetHeaders;
  /** Deadline of one probe fetch, ms. */
  timeoutMs: number;
  /** Read whole images (image, logo) and add their palette. */
  palette: boolean;
  /** Time one palette decode may take, ms; default the probe's timeoutMs. */
  paletteTimeoutMs?: number;
  /** Admission of palette decodes. */
  palettes?: AdmissionPool;
}

type Fit = "yes" | "maybe" | "no";

/** Types that say nothing: the bytes decide. */
const GENERIC = new Set([
  "application/octet-stream",
  "binary/octet-stream",
  "application/binary",
  "application/unknown",
  "application/x-download",
  "application/download",
  "application/force-download",
]);
/** Containers that often hold audio only (og:audio pointing at .m4a served as video/mp4). */
const AUDIO_CONTAINERS = new Set(["mp4", "m4v", "webm", "mkv", "ogv", "mov", "3gp"]);
const STREAMING = new Set([
  "application/vnd.apple.mpegurl",
  "application/x-mpegurl",
  "application/dash+xml",
]);

function typeFitsField(field: MediaField, type: string | null): boolean {
  const kind = kindOfType(type);
  if (field === "image" || field === "logo") return kind === "image";
  if (field === "audio") return kind === "audio" || (type !== null && AUDIO_CONTAINERS.has(type));
  return kind === "video";
}

/** Does the Content-Type (and, once read, the bytes) fit the field? */
function fits(field: MediaField, contentType: string | null, bytes?: Uint8Array): Fit {
  const mime = mimeOf(contentType);
  if (mime === null || GENERIC.has(mime)) {
    if (!bytes?.length) return "maybe";
    return typeFitsField(field, typeFromBytes(bytes)) ? "yes" : "no";
  }
  const [major] = mime.split("/");
  if (field === "image" || field === "logo") return major === "image" ? "yes" : "no";
  if (field === "audio") {
    if (major === "audio" || mime === "application/ogg") return "yes";
    return ["video/mp4", "video/webm", "video/ogg", "video/quicktime", "video/x-matroska"]
        .includes(mime)
      ? "yes"
      : "no";
  }
  return major === "video" || STREAMING.has(mime) ? "yes" : "no";
}

const ok = (r: FetchResult) => r.statusCode >= 200 && r.statusCode < 300;

/** HEAD refused (405, 501, or a 4xx other than "not there"): a GET may still work. */
const headRefused = (status: number) =>
  status === 501 || (status >= 400 && status < 500 && status !== 404 && status !== 410);

function contentType(r: FetchResult | null): string | null {
  return r?.headers["content-type"] ?? null;
}

/** The whole file's size: Content-Range total, else Content-Length, else a complete body. */
function totalSize(r: FetchResult | null): number | null {
  if (!r) return null;
  const range = /\/\s*(\d+)\s*$/.exec(r.headers["content-range"] ?? "");
  if (range) return Number(range[1]);
  if (r.statusCode === 206) return null;
  const encoded = (r.headers["content-encoding"] ?? "identity") !== "identity";
  const length = Number(r.headers["content-length"] ?? NaN);
  if (!encoded && Number.isSafeInteger(length) && length >= 0) return length;
  return r.body.length && !r.truncated ? r.body.length : null;
}

/** One budgeted, host-limited fetch; null when the budget is spent or the fetch failed. */
async function fetchOnce(
  url: string,
  options: FetchOptions,
  ctx: ProbeContext,
): Promise<FetchResult | null> {
  if (ctx.signal?.aborted || !ctx.budget.take()) return null;
  const host = URL.parse(url)?.host;
  if (host === undefined) return null;
  try {
    return await ctx.limiter.run(host, () =>
      ctx.fetcher.fetch(url, {
        ...options,
        ...targetHeaderOptions(ctx.targetHeaders),
        // identity: Range and sizes then count the file's own bytes.
        headers: {
          ...ctx.headers,
          accept: "*/*",
          "accept-encoding": "identity",
          ...options.headers,
        },
        signal: ctx.signal,
        timeoutMs: ctx.timeoutMs,
      }));
  } catch {
    return null; // EFORBIDDENURL, EFETCH, ETIMEOUT ...: the candidate is dropped silently
  }
}

function setDuration(media: MediaObject, seconds: number | null): void {
  if (seconds === null) return;
  media.duration = Math.round(seconds * 1000) / 1000;
  media.duration_pretty = prettyDuration(seconds);
}

/** Durations whose header sits beyond the prefix: Ogg's last page, MP4's trailing moov. */
async function readDurationElsewhere(
  media: MediaObject,
  first: FetchResult,
  ctx: ProbeContext,
): Promise<void> {
  const size = media.size;
  if (media.duration !== null || size === null || size <= first.body.length) return;
  if (media.type === "ogg" || media.type === "opus") {
    const tail = await fetchOnce(media.url, {
      method: "GET",
      headers: { range: `bytes=-${PROBE_BYTES}` },
      maxBytes: PROBE_BYTES,
    }, ctx);
    if (tail?.statusCode !== 206) return;
    setDuration(media, mediaDuration({ bytes: first.body, totalSize: size, tail: tail.body }));
    return;
  }
  const offset = mp4MoovOffset(first.body, size);
  if (offset === null) return;
  const moov = await fetchOnce(media.url, {
    method: "GET",
    headers: { range: `bytes=${offset}-${offset + PROBE_BYTES - 1}` },
    maxBytes: PROBE_BYTES,
  }, ctx);
  // A server that ignores Range sends the file's start again: useless here.
  if (moov?.statusCode !== 206 || !moov.headers["content-range"]?.includes(` ${offset}-`)) return;
  setDuration(media, mediaDuration({ bytes: moov.body, type: media.type }));
}

/** The verified media object for `url` in `field`, or null when it does not verify. */
export async function probeMedia(
  field: MediaField,
  url: string,
  ctx: ProbeContext,
): Promise<MediaObject | null> {
  const head = await fetchOnce(url, { method: "HEAD" }, ctx);
  if (!head) return null;
  let headFit: Fit | null = null;
  if (ok(head)) {
    headFit = fits(field, contentType(head));
    if (headFit === "no") return null;
  } else if (!headRefused(head.statusCode)) {
    return null;
  }

  const whole = ctx.palette && (field === "image" || field === "logo");
  const get = await fetchOnce(
    url,
    whole ? { method: "GET" } : {
      method: "GET",
      headers: { range: `bytes=0-${PROBE_BYTES - 1}` },
      maxBytes: PROBE_BYTES,
    },
    ctx,
  );
  let media: MediaObject;
  if (!get || !ok(get)) {
    // HEAD alone verified it: type and size from its headers, no header bytes.
    if (headFit !== "yes") return null;
    media = describeMedia({
      url,
      bytes: new Uint8Array(0),
      contentType: contentType(head),
      totalSize: totalSize(head),
    });
  } else {
    const type = contentType(get) ?? contentType(head);
    if (fits(field, type, get.body) !== "yes") return null;
    media = describeMedia({
      url,
      bytes: get.body,
      contentType: type,
      totalSize: totalSize(get) ?? (ok(head) ? totalSize(head) : null),
    });
    if (media.duration === null) await readDurationElsewhere(media, get, ctx);
  }
  if (whole) {
    const colours = get && ok(get) && !get.truncated
      ? await imagePaletteAsync(get.body, {
        signal: ctx.signal,
        timeoutMs: ctx.paletteTimeoutMs ?? ctx.timeoutMs,
        admission: ctx.palettes,
      })
      : null;
    media.palette = colours?.palette ?? [];
    media.background_color = colours?.background_color ?? null;
    media.color = colours?.color ?? null;
    media.alternative_color = colours?.alternative_color ?? null;
  }
  return media;
}
