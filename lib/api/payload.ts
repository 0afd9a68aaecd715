/**
 * buildPayload: the steps one API request runs against its target, and the `data` they make.
 * Each step (lib/api/steps/) returns its part; nothing but the pipeline below writes `data`.
 *
 *   page     fetch (or render) the target, decode it, or describe it as a media file
 *   capture  the browser's screenshot/pdf hosted under /assets/, `function`'s value; it runs
 *            beside the steps after it (one visit serves both when the page was rendered)
 *   fields   the default fields in one pass, then their media candidates probed
 *   extras   oEmbed `iframe`, custom `data` rules and `markdown` (a YouTube video's read from
 *            its caption transcript), `insights`
 *
 * Custom rules are applied last: they may redefine any field, the default ones included (as
 * Microlink's do). Each step adds its wall time to the request's Timings (server-timing).
 */
import { viaProxy } from "../fetch/proxy_client.ts";
import { Timings } from "../util/server_timing.ts";
import { type FetchMode, MEDIA_FIELDS, type Redirect } from "../util/payload_types.ts";
import { type Capture, hostCapture } from "./steps/capture.ts";
import {
  type PayloadContext,
  startVisit,
  type StepContext,
  wantsBrowser,
} from "./steps/context.ts";
import { domParts, iframeOf, insightsOf } from "./steps/extras.ts";
import { defaultFields, extractPage, mediaFields, startPlatformData } from "./steps/fields.ts";
import { loadPage } from "./steps/page.ts";
import { contentPage } from "./steps/transcript.ts";

export interface Payload {
  status: "success";
  data: Record<string, unknown>;
  statusCode: number | null;
  redirects: Redirect[];
  headers: Record<string, string>;
}

export interface PayloadResult {
  payload: Payload;
  fetchMode: FetchMode;
  fetchTimeMs: number;
}

export type { PayloadContext } from "./steps/context.ts";

/** Runs everything the parameters ask for against one target and builds `data`. */
export async function buildPayload(request: PayloadContext): Promise<PayloadResult> {
  const { params } = request;
  const context: StepContext = {
    ...request,
    // `proxy=`: every fetch of this request (page, probes, endpoints, oEmbed) goes through it.
    services: { ...request.services, fetcher: viaProxy(request.services.fetcher, params.proxy) },
    timings: request.timings ?? new Timings(),
    startedAt: performance.now(),
  };
  startPlatformData(context);
  const page = await loadPage(context);
  const visit = wantsBrowser(params, context.rules)
    ? page.visit ?? startVisit(context, page.url, { html: false })
    : null;
  const capture = visit ? hostCapture(context, visit) : null;
  // Awaited below with the rest; a failure while extraction runs is not left unhandled.
  capture?.catch(() => {});
  const html = page.html;
  const extracted = html === null ? null : await extractPage(context, { html, url: page.url });
  const meta = params.meta;
  const [captured, media, iframe, dom, insights] = await Promise.all([
    capture,
    extracted && meta !== false ? mediaFields(context, extracted, page.url) : null,
    extracted && params.iframe !== null ? iframeOf(context, extracted, page.url) : undefined,
    html !== null && (params.markdown || context.rules !== null)
      ? contentPage(context, { html, url: page.url }, extracted?.title ?? null)
        .then((content) => domParts(context, content, visit))
      : null,
    params.insights
      ? insightsOf(context, { url: page.url, headers: page.rawHeaders, html })
      : undefined,
  ]);

  const data: Record<string, unknown> = page.file ??
    (extracted && meta !== false ? defaultFields(extracted, meta) : {});
  if (media && meta !== false) {
    for (const field of MEDIA_FIELDS) if (meta.has(field)) data[field] = media[field];
  }
  addCapture(data, captured);
  if (iframe !== undefined) data.iframe = iframe;
  if (dom?.markdown != null) data.markdown = dom.markdown;
  if (insights !== undefined) data.insights = insights;
  Object.assign(data, dom?.custom);
  const { statusCode, redirects, headers } = page;
  return {
    payload: {
      status: "success",
      data,
      statusCode: statusCode ?? captured?.statusCode ?? null,
      redirects,
      headers,
    },
    fetchMode: page.fetchMode,
    fetchTimeMs: page.fetchTimeMs,
  };
}

function addCapture(data: Record<string, unknown>, captured: Capture | null): void {
  if (captured?.screenshot) data.screenshot = captured.screenshot;
  if (captured?.pdf) data.pdf = captured.pdf;
  if (captured?.function) data.function = captured.function;
}
