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
  wantsDomWork,
} from "./steps/context.ts";
import { domParts, fieldsAndDomParts, iframeOf, insightsOf } from "./steps/extras.ts";
import {
  defaultFields,
  extractPage,
  fetchesFollowFields,
  mediaFields,
  startPlatformData,
} from "./steps/fields.ts";
import { isVideoPage } from "../extract/platforms/youtube_captions.ts";
import { loadPage, type Page } from "./steps/page.ts";
import type { VisitResult } from "../browser/types.ts";
import { verifyCustomMedia } from "./steps/custom_media.ts";
import { ProbeBudget } from "../media/_limit.ts";
import { MAX_PROBES } from "../media/ping.ts";
import { contentPage } from "./steps/transcript.ts";
import type { DomResult } from "../extract/dom/work.ts";
import type { Extracted } from "../extract/mod.ts";
import {
  FRONT_MATTER_FIELDS,
  type FrontMatterField,
  withFrontMatter,
} from "../extract/content/front_matter.ts";

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
    probes: new ProbeBudget(MAX_PROBES),
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
  const { extracted, domWork } = await readPage(context, page, visit);
  const meta = params.meta;
  const [captured, media, iframe, dom, insights] = await Promise.all([
    capture,
    extracted && meta !== false ? mediaFields(context, extracted, page.url) : null,
    extracted && params.iframe !== null ? iframeOf(context, extracted, page.url) : undefined,
    domWork,
    params.insights
      ? insightsOf(context, { url: page.url, headers: page.rawHeaders, html })
      : undefined,
  ]);

  const data: Record<string, unknown> = page.file ??
    (extracted && meta !== false ? defaultFields(extracted, meta) : {});
  if (media && meta !== false) {
    for (const field of MEDIA_FIELDS) if (meta.has(field)) data[field] = media[field];
  }
  if (meta !== false) Object.assign(data, page.attach);
  addCapture(data, captured);
  if (iframe !== undefined) data.iframe = iframe;
  const fields = dom ? frontMatterFields(data, extracted, meta) : {};
  if (dom?.markdown != null) data.markdown = markdownOf(dom, fields);
  if (dom?.text != null) data.text = dom.text;
  if (insights !== undefined) data.insights = insights;
  if (dom) Object.assign(data, customOf(dom, fields));
  const { statusCode, redirects, headers } = page;
  return {
    payload: {
      status: "success",
      data,
      statusCode: statusCode ?? captured?.statusCode ?? null,
      redirects,
      headers,
    },
    fetchMode: throughProxy(page.fetchMode, params.proxy ?? request.services.config.egressProxy),
    fetchTimeMs: page.fetchTimeMs,
  };
}

/**
 * The default fields, awaited, and the DOM work (custom rules, markdown, text) when asked for,
 * running. Both in one DomWorkers job when both read the same page and the fields are not needed
 * sooner: no follow-up fetch starts from them, or the DOM work would hold this thread anyway (a
 * lone request's, run here: no fetch could move meanwhile, and an idle worker reads the fields
 * at the same time). Else the fields first, then the DOM work, so that the follow-up fetches
 * overlap the DOM work on its worker: on two cores, both on workers at once starve this thread
 * (the event-loop test saw /health answer late).
 */
async function readPage(
  context: StepContext,
  page: Page,
  visit: Promise<VisitResult> | null,
): Promise<{ extracted: Extracted | null; domWork: Promise<DomResult> | null }> {
  const html = page.html;
  if (html === null) return { extracted: null, domWork: null };
  const target = { html, url: page.url };
  const wantsDom = wantsDomWork(context);
  const verified = async (dom: DomResult) => {
    await verifyCustomMedia(context, dom.customMedia);
    return dom;
  };
  if (
    wantsDom && page.fieldsHtml === null && visit === null && !isVideoPage(page.url) &&
    (!fetchesFollowFields(context) || context.services.dom.worksHere(html.length))
  ) {
    const both = await fieldsAndDomParts(context, target);
    return { extracted: both.extracted, domWork: verified(both) };
  }
  const extracted = await extractPage(context, { html: page.fieldsHtml ?? html, url: page.url });
  const domWork = wantsDom
    ? contentPage(context, target, extracted.title)
      .then((content) => domParts(context, content, visit))
      .then(verified)
    : null;
  return { extracted, domWork };
}

type Fields = Partial<Record<FrontMatterField, unknown>>;

/** data.markdown, opened with front matter when `frontmatter=true` asked for it. */
function markdownOf(dom: DomResult, fields: Fields): string | null {
  if (dom.markdown === null || dom.markdownWords === null) return dom.markdown;
  return withFrontMatter(dom.markdown, fields, dom.markdownWords);
}

/** The custom values; whole-page Markdown rules open with front matter when `meta` is on. */
function customOf(dom: DomResult, fields: Fields): Record<string, unknown> {
  const custom = { ...dom.custom };
  for (const [name, words] of Object.entries(dom.wholePageWords)) {
    custom[name] = withFrontMatter(custom[name] as string, fields, words);
  }
  return custom;
}

/**
 * The metadata front matter shows: the fields `meta` keeps (all with meta=false, where only
 * `frontmatter=true` asks for it), as the response has them, else as extracted.
 */
function frontMatterFields(
  data: Record<string, unknown>,
  extracted: Extracted | null,
  meta: false | Set<string>,
): Fields {
  const fields: Fields = {};
  for (const name of FRONT_MATTER_FIELDS) {
    if (meta !== false && !meta.has(name)) continue;
    fields[name] = data[name] ?? extracted?.[name] ?? null;
  }
  return fields;
}

function addCapture(data: Record<string, unknown>, captured: Capture | null): void {
  if (captured?.screenshot) data.screenshot = captured.screenshot;
  if (captured?.pdf) data.pdf = captured.pdf;
  if (captured?.function) data.function = captured.function;
}

/** Microlink's `-proxy` suffix on x-fetch-mode when an upstream proxy carried the page. */
function throughProxy(mode: FetchMode, proxy: unknown): FetchMode {
  if (!proxy || mode === "skipped") return mode;
  return mode === "prerender" || mode === "prerender-proxy" ? "prerender-proxy" : "fetch-proxy";
}
