import { ApiError } from "../errors.ts";
import { decodeHtml } from "../fetch/decode.ts";
import type { FetchResult, TargetHeaders } from "../fetch/types.ts";
import type { Extracted } from "../extract/mod.ts";
import type { CustomRules } from "../extract/custom.ts";
import { fetchPlatformData } from "../extract/platforms/endpoint.ts";
import { fetchIframe, oembedEndpoint } from "../oembed.ts";
import { describeMedia } from "../media/describe.ts";
import { sniffMedia } from "../media/sniff.ts";
import { MAX_CANDIDATES, resolveMedia } from "../ping.ts";
import { manifestIcons } from "./manifest_logo.ts";
import type { Params } from "../params/mod.ts";
import {
  DEFAULT_FIELDS,
  MEDIA_FIELDS,
  type MediaField,
  type MediaObject,
  type Redirect,
} from "../types.ts";
import type { Services } from "../services.ts";
import type { VisitResult } from "../browser/types.ts";
import { prerenderReason } from "./prerender.ts";
import { ASSET_PREFIX, hostAsset } from "./assets.ts";
import { pageCode, visitOptions, withUserinfo } from "./visit_options.ts";
import { collectInsights } from "../insights/mod.ts";
import { viaProxy } from "../fetch/proxy.ts";

export interface Payload {
  status: "success";
  data: Record<string, unknown>;
  statusCode: number | null;
  redirects: Redirect[];
  headers: Record<string, string>;
}

export interface PayloadResult {
  payload: Payload;
  fetchMode: "fetch" | "prerender" | "skipped";
  fetchTimeMs: number;
}

export interface PayloadContext {
  params: Params;
  target: URL;
  services: Services;
  signal: AbortSignal;
  /** The request carried credentials: assets get private, unguessable ids. */
  credentialed: boolean;
  /** The `data` custom rules, already checked (lib/api/prepare.ts). */
  rules: CustomRules | null;
}

const EMPTY_FIELDS = {
  title: null,
  description: null,
  lang: null,
  author: null,
  publisher: null,
  date: null,
  url: null,
  image: null,
  logo: null,
  audio: null,
  video: null,
};

function publicHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name !== "set-cookie" && name !== "set-cookie2") out[name] = value;
  }
  return out;
}

/** Does any feature need the page's HTML? */
function needsHtml(params: Params): boolean {
  return params.meta !== false || params.data !== null || params.markdown ||
    params.iframe !== null || params.insights !== null;
}

function wantsBrowser(params: Params, rules: CustomRules | null): boolean {
  return params.screenshot !== null || params.pdf !== null || hasPageCode(params, rules);
}

/** `function` or an `evaluate` rule: code that runs in the page, so the browser visits it. */
function hasPageCode(params: Params, rules: CustomRules | null): boolean {
  return params.function !== null ||
    Object.values(rules ?? {}).some((fallbacks) => fallbacks.some((rule) => rule.evaluate));
}

/** A target that is itself an image, audio, video or PDF is described as that file. */
function describeFileTarget(result: FetchResult): Record<string, unknown> | null {
  const contentType = result.headers["content-type"] ?? null;
  // The bytes and the declared type decide; a URL ending in .jpg may still serve HTML.
  const { kind } = sniffMedia({ bytes: result.body, contentType });
  if (kind === "other") return null;
  const total = Number(result.headers["content-length"] ?? NaN);
  const media = describeMedia({
    url: result.url,
    bytes: result.body,
    contentType,
    totalSize: Number.isFinite(total) && !result.truncated ? total : result.body.length,
  });
  const data: Record<string, unknown> = { ...EMPTY_FIELDS, url: result.url };
  if (kind === "image") data.image = media;
  if (kind === "audio") data.audio = media;
  if (kind === "video") data.video = media;
  if (kind === "pdf") data.pdf = media;
  return data;
}

async function mediaFields(
  extracted: Extracted,
  context: PayloadContext & { pageUrl: string },
): Promise<Record<MediaField, MediaObject | null>> {
  const { params, services, signal } = context;
  const off = (field: MediaField) =>
    (field === "audio" && !params.audio) || (field === "video" && !params.video) ||
    (params.meta !== false && !params.meta.has(field));
  const candidates = Object.fromEntries(
    MEDIA_FIELDS.map((field) => [field, off(field) ? [] : extracted[field]]),
  ) as Record<MediaField, string[]>;
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
    signal,
    pageUrl: context.pageUrl,
    skipPrefix: `${services.config.publicUrl}${ASSET_PREFIX}`,
    targetHeaders: targetHeaders(context),
  });
}

/** `headers.*` (and the URL's userinfo), for follow-up fetches of the target's own origin. */
function targetHeaders({ params, target }: PayloadContext): TargetHeaders {
  return { origin: target.origin, headers: withUserinfo(params.headers, target) };
}

/** The default fields the request keeps, in the contract's order; media filled in later. */
function defaultFields(extracted: Extracted, keep: Set<string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of DEFAULT_FIELDS) {
    if (!keep.has(field)) continue;
    data[field] = (MEDIA_FIELDS as readonly string[]).includes(field)
      ? null
      : extracted[field as keyof Extracted];
  }
  return data;
}

/** Runs everything the parameters ask for against one target and builds `data`. */
export async function buildPayload(context: PayloadContext): Promise<PayloadResult> {
  const { params, target, signal } = context;
  // `proxy=`: every fetch of this request (page, probes, endpoints, oEmbed) goes through it.
  const fetcher = viaProxy(context.services.fetcher, params.proxy);
  const services = { ...context.services, fetcher };
  const startedAt = performance.now();
  let fetchMode: PayloadResult["fetchMode"] = "skipped";
  let fetchTimeMs = 0;
  let statusCode: number | null = null;
  let redirects: Redirect[] = [];
  let headers: Record<string, string> = {};
  let html: string | null = null;
  let finalUrl = target.href;
  let fileData: Record<string, unknown> | null = null;
  let visit: Promise<VisitResult> | null = null;
  /** The target's headers as it sent them (set-cookie included), for `insights`. */
  let rawHeaders: Record<string, string> = {};

  // A platform's endpoint (lib/extract/platforms/) starts beside the page fetch; it is cached,
  // so asking again for the final URL below costs nothing more when the page did not move.
  const endpoint = { fetcher: services.fetcher, signal };
  if (params.meta !== false) void fetchPlatformData(target.href, endpoint);

  const startVisit = (withHtml: boolean, awaiting?: "navigation" | "text") =>
    services.browser.visit(finalUrl, {
      ...visitOptions(params, { html: withHtml, target, url: finalUrl }),
      awaiting,
      ...pageCode(params, {
        rules: context.rules,
        target,
        startedAt,
        requestTimeoutMs: services.config.requestTimeoutMs,
      }),
      signal,
    });

  if (needsHtml(params) && params.prerender !== "true") {
    const started = performance.now();
    const result = await services.fetcher.fetch(target.href, {
      originHeaders: params.headers,
      retries: params.retry,
      signal,
    });
    fetchTimeMs = performance.now() - started;
    services.metrics.fetchBytes(result.body.length);
    fetchMode = "fetch";
    statusCode = result.statusCode;
    redirects = result.redirects;
    headers = publicHeaders(result.headers);
    rawHeaders = result.headers;
    finalUrl = result.url;
    fileData = describeFileTarget(result);
    if (!fileData) {
      html = decodeHtml(result.body, result.headers["content-type"] ?? null);
      const reason = params.prerender === "auto" ? prerenderReason(html, result.statusCode) : null;
      if (reason) {
        const renderStarted = performance.now();
        // A shell mounts its text by script; a challenge or a wall navigates to the real page.
        const awaiting = reason === "shell" ? "text" : "navigation";
        const rendered = await startVisit(true, awaiting).catch((error) => {
          // auto is best effort: the fetched HTML stands when the browser cannot help
          // (missing, busy, too slow), unless the request itself has run out of time.
          if (error instanceof ApiError && !signal.aborted) return null;
          throw error;
        });
        if (rendered?.html) {
          html = rendered.html;
          fetchMode = "prerender";
          fetchTimeMs += performance.now() - renderStarted;
          // The answer describes the page the browser ended on (a solved challenge's is 200).
          statusCode = rendered.statusCode || statusCode;
          headers = publicHeaders(rendered.headers);
          finalUrl = rendered.url;
          visit = Promise.resolve(rendered);
        }
      }
    }
  } else if (needsHtml(params) || wantsBrowser(params, context.rules)) {
    const started = performance.now();
    const rendered = await (visit = startVisit(needsHtml(params)));
    fetchTimeMs = performance.now() - started;
    if (needsHtml(params)) fetchMode = "prerender";
    statusCode = rendered.statusCode;
    headers = publicHeaders(rendered.headers);
    rawHeaders = rendered.headers;
    finalUrl = rendered.url;
    html = rendered.html ?? null;
  }

  let data: Record<string, unknown> = fileData ?? {};
  let custom: Record<string, unknown> = {};
  const work: Promise<void>[] = [];
  // The screenshot/pdf visit runs while extraction and probing go on (one visit serves both
  // when the page was rendered already).
  const captured = wantsBrowser(params, context.rules) ? visit ?? startVisit(false) : null;
  if (captured) {
    work.push(captured.then(async (result) => {
      if (params.screenshot !== null && result.screenshot) {
        data.screenshot = await hostAsset(services, {
          bytes: result.screenshot.bytes,
          type: result.screenshot.type === "jpeg" ? "jpg" : "png",
          width: result.screenshot.width,
          height: result.screenshot.height,
          credentialed: context.credentialed,
          filename: params.filename,
        });
      }
      if (params.pdf !== null && result.pdf) {
        data.pdf = await hostAsset(services, {
          bytes: result.pdf.bytes,
          type: "pdf",
          width: null,
          height: null,
          credentialed: context.credentialed,
          filename: params.filename,
        });
      }
      if (result.function) data.function = result.function;
      statusCode ??= result.statusCode;
    }));
  }
  if (html !== null) {
    const page = html;
    const fetched = params.meta === false ? null : await fetchPlatformData(finalUrl, endpoint);
    const extracted = await services.dom.extract(page, finalUrl, { fetched, signal });
    if (params.meta !== false) {
      const keep = params.meta;
      data = { ...defaultFields(extracted, keep), ...data };
      work.push(
        mediaFields(extracted, { ...context, services, pageUrl: finalUrl }).then((media) => {
          for (const field of MEDIA_FIELDS) if (keep.has(field)) data[field] = media[field];
        }),
      );
    }
    if (params.iframe !== null) {
      const options = { fetcher: services.fetcher, ...params.iframe, signal };
      work.push(
        oembedEndpoint({ discovered: extracted.oembed, url: finalUrl })
          .then((endpoint) => endpoint ? fetchIframe(endpoint, options) : null)
          .then((iframe) => {
            data.iframe = iframe;
          }),
      );
    }
    if (params.markdown || context.rules !== null) {
      const rules = context.rules;
      // `evaluate` rules wait for the values the browser computed in the page.
      const evaluated = captured && hasPageCode(params, rules)
        ? captured.then((r) => r.evaluated?.map((e) => e.isFulfilled ? e.value : null))
        : Promise.resolve(undefined);
      work.push(
        evaluated.then((values) =>
          services.dom.run({
            html: page,
            url: finalUrl,
            rules,
            markdown: params.markdown,
            evaluated: values,
          }, {
            signal,
          })
        )
          .then((result) => {
            custom = result.custom;
            if (result.markdown !== null) data.markdown = result.markdown;
          }),
      );
    }
  }
  if (params.insights) {
    const timeoutMs = params.timeoutMs ?? services.config.requestTimeoutMs;
    const page = { services, url: finalUrl, headers: rawHeaders, html, signal, timeoutMs };
    work.push(
      collectInsights(params.insights, page).then((insights) => {
        data.insights = insights;
      }),
    );
  }
  await Promise.all(work);
  // Custom rules may redefine any field, the default ones included (as Microlink's do).
  Object.assign(data, custom);
  return {
    payload: { status: "success", data, statusCode, redirects, headers },
    fetchMode,
    fetchTimeMs,
  };
}
