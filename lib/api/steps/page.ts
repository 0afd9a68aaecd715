/**
 * The page step: the target fetched (and decoded), rendered in Chromium when `prerender` asks
 * or prerenderReason finds a shell, a challenge or a wall, or described as a file when it
 * is an image, audio or video. A document (PDF, Office, ODF, RTF, EPUB) is converted to HTML and
 * read like a page (see the document step); one that cannot be is described as a file.
 */
import { ApiError } from "../../util/errors.ts";
import { detectDocument } from "../../documents/detect.ts";
import { decodeHtml } from "../../fetch/decode.ts";
import type { FetchResult } from "../../fetch/types.ts";
import { describeMedia } from "../../media/describe.ts";
import { sniffMedia } from "../../media/sniff.ts";
import type { VisitResult } from "../../browser/types.ts";
import type { FetchMode, Redirect } from "../../util/payload_types.ts";
import { type PrerenderReason, prerenderReason } from "../prerender.ts";
import { needsHtml, startVisit, type StepContext, wantsBrowser } from "./context.ts";
import { readDocument } from "./document.ts";
import { fieldsView } from "../../documents/html.ts";

export interface Page {
  fetchMode: FetchMode;
  fetchTimeMs: number;
  statusCode: number | null;
  redirects: Redirect[];
  /** The headers the answer shows (no cookies). */
  headers: Record<string, string>;
  /** The target's headers as it sent them (set-cookie included), for `insights`. */
  rawHeaders: Record<string, string>;
  /** The page's HTML, when a feature needs it and the target is a page. */
  html: string | null;
  /** Where the page ended (redirects, the browser's navigation). */
  url: string;
  /** `data` of a target that is itself a media file. */
  file: Record<string, unknown> | null;
  /** Media objects of a target read as a page and also a file (a converted PDF's `pdf`). */
  attach: Record<string, unknown> | null;
  /** What the default fields read instead of `html`, when less does (a converted document). */
  fieldsHtml: string | null;
  /** The browser's visit, when the page was rendered: it also serves the capture. */
  visit: Promise<VisitResult> | null;
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

/** The fields of a file target with nothing more to say about it than its URL. */
function fileFields(result: FetchResult): Record<string, unknown> {
  return { ...EMPTY_FIELDS, url: result.url };
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

const NOTHING: Page = {
  fetchMode: "skipped",
  fetchTimeMs: 0,
  statusCode: null,
  redirects: [],
  headers: {},
  rawHeaders: {},
  html: null,
  url: "",
  file: null,
  attach: null,
  fieldsHtml: null,
  visit: null,
};

export async function loadPage(context: StepContext): Promise<Page> {
  const { params } = context;
  if (needsHtml(params) && params.prerender !== "true") return await fetchPage(context);
  if (needsHtml(params)) return await renderPageOrDocument(context);
  if (wantsBrowser(params, context.rules)) return await renderPage(context, false);
  return { ...NOTHING, url: context.target.href };
}

/**
 * `prerender=true`: the browser first. A document is still fetched and converted: Chromium
 * would show a PDF in its viewer (no text to read) and abort the navigation of a file it
 * downloads (a .docx), so either sends the target to the fetcher; anything else the browser
 * could not load keeps the browser's error.
 */
async function renderPageOrDocument(context: StepContext): Promise<Page> {
  const started = performance.now();
  let rendered: Page;
  try {
    rendered = await renderPage(context, true);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "EFETCH" || context.signal.aborted) {
      throw error;
    }
    const document = await fetchedDocument(context, context.target.href, started)
      .catch((fetchError) => {
        if (context.signal.aborted) throw fetchError;
        return null;
      });
    if (document) return document;
    throw error;
  }
  return await documentInstead(context, rendered, started) ?? rendered;
}

/** The browser ended on a document (by its type or its URL): it is fetched and converted. */
async function documentInstead(
  context: StepContext,
  rendered: Page,
  started: number,
): Promise<Page | null> {
  const contentType = rendered.rawHeaders["content-type"] ?? null;
  const shown = detectDocument({ bytes: new Uint8Array(), contentType, url: rendered.url });
  if (!shown) return null;
  const document = await fetchedDocument(context, rendered.url, started);
  // The visit stays, for a capture asked beside the fields.
  return document && { ...document, visit: rendered.visit };
}

/** `url` fetched and converted when its bytes (or type) make it a document, else null. */
async function fetchedDocument(
  context: StepContext,
  url: string,
  started: number,
): Promise<Page | null> {
  const { page, result } = await fetchTarget(context, url);
  const document = await documentPage(context, page, result);
  return document && { ...document, fetchTimeMs: performance.now() - started };
}

/** The browser first (`prerender=true`, or only a capture wanted): its visit serves both. */
async function renderPage(context: StepContext, withHtml: boolean): Promise<Page> {
  const started = performance.now();
  const visit = startVisit(context, context.target.href, { html: withHtml });
  const rendered = await visit.finally(() => {
    context.timings.add("browser", performance.now() - started);
  });
  return {
    fetchMode: withHtml ? "prerender" : "skipped",
    fetchTimeMs: performance.now() - started,
    statusCode: rendered.statusCode,
    redirects: [],
    headers: publicHeaders(rendered.headers),
    rawHeaders: rendered.headers,
    html: rendered.html ?? null,
    url: rendered.url,
    file: null,
    attach: null,
    fieldsHtml: null,
    visit,
  };
}

async function fetchPage(context: StepContext): Promise<Page> {
  const { params, timings } = context;
  const { page, result } = await fetchTarget(context, context.target.href);
  const document = await documentPage(context, page, result);
  if (document) return document;
  const decoding = performance.now();
  page.file = describeFileTarget(result);
  if (page.file) {
    timings.add("decode", performance.now() - decoding);
    return page;
  }
  page.html = decodeHtml(result.body, result.headers["content-type"] ?? null);
  const reason = params.prerender === "auto" ? prerenderReason(page.html, result.statusCode) : null;
  timings.add("decode", performance.now() - decoding);
  return reason ? await prerenderAuto(context, page, reason) : page;
}

/** `url` fetched: the page it makes before anything reads its body. */
async function fetchTarget(
  context: StepContext,
  url: string,
): Promise<{ page: Page; result: FetchResult }> {
  const { params, services, signal, timings } = context;
  const started = performance.now();
  const result = await services.fetcher.fetch(url, {
    originHeaders: params.headers,
    retries: params.retry,
    signal,
  });
  const fetchTimeMs = performance.now() - started;
  timings.add("fetch", fetchTimeMs);
  services.metrics.fetchBytes(result.body.length);
  const page: Page = {
    fetchMode: "fetch",
    fetchTimeMs,
    statusCode: result.statusCode,
    redirects: result.redirects,
    headers: publicHeaders(result.headers),
    rawHeaders: result.headers,
    html: null,
    url: result.url,
    file: null,
    attach: null,
    fieldsHtml: null,
    visit: null,
  };
  return { page, result };
}

/** The fetched target converted and read as a page when it is a document, else null. */
async function documentPage(
  context: StepContext,
  page: Page,
  result: FetchResult,
): Promise<Page | null> {
  const contentType = result.headers["content-type"] ?? null;
  const format = detectDocument({ bytes: result.body, contentType, url: result.url });
  if (!format) return null;
  const read = await readDocument(context, result, format);
  // A PDF stays `data.pdf`, with its page count (null when it could not be read).
  const described = describeFileTarget(result);
  const pdf = described?.pdf ? { pdf: { ...described.pdf, pages: read.pages } } : null;
  if (read.html === null) {
    return { ...page, file: { ...(described ?? fileFields(result)), ...pdf } };
  }
  return { ...page, html: read.html, attach: pdf, fieldsHtml: fieldsView(read.html) };
}

/** prerender=auto found a reason: the rendered page replaces the fetched one when it can. */
async function prerenderAuto(
  context: StepContext,
  page: Page,
  reason: PrerenderReason,
): Promise<Page> {
  const started = performance.now();
  // A shell mounts its text by script; a challenge or a wall navigates to the real page.
  const awaiting = reason === "shell" ? "text" : "navigation";
  const rendered = await startVisit(context, page.url, { html: true, awaiting }).catch((error) => {
    // auto is best effort: the fetched HTML stands when the browser cannot help
    // (missing, busy, too slow), unless the request itself has run out of time.
    if (error instanceof ApiError && !context.signal.aborted) return null;
    throw error;
  }).finally(() => context.timings.add("browser", performance.now() - started));
  if (!rendered?.html) return page;
  const visit = Promise.resolve(rendered);
  const shown = { ...page, rawHeaders: rendered.headers, url: rendered.url, visit };
  const document = await documentInstead(context, shown, started);
  if (document) return { ...document, fetchTimeMs: page.fetchTimeMs + document.fetchTimeMs };
  return {
    ...page,
    html: rendered.html,
    fetchMode: "prerender",
    fetchTimeMs: page.fetchTimeMs + performance.now() - started,
    // The answer describes the page the browser ended on (a solved challenge's is 200).
    statusCode: rendered.statusCode || page.statusCode,
    headers: publicHeaders(rendered.headers),
    url: rendered.url,
    visit,
  };
}
