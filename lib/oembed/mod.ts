/**
 * The `iframe` feature: the page's own oEmbed link (`<link type="application/json+oembed">`,
 * found by extract() as `oembed`), else the listed provider for the page's URL
 * (registeredOembedUrl), and the provider fetch, through the guarded fetcher like every other
 * follow-up request. Any failure (forbidden address, bad JSON, wrong type) yields null, never an
 * error for the request.
 */
import { LinearParser } from "../extract/stream/html_parser.ts";
import type { Fetcher } from "../fetch/types.ts";
import { absoluteUrl } from "../extract/dom/mod.ts";
import { registeredOembedUrl } from "./registry.ts";
import { parseJson } from "../util/json_depth.ts";

/**
 * One `<script src>` split out of the embed html, as Microlink answers it: the element's
 * attributes, which its card SDK copies onto a new `<script>` (so strings would load nothing).
 */
export interface IframeScript {
  src: string;
  async?: boolean;
  defer?: boolean;
  charset?: string;
  type?: string;
}

export interface Iframe {
  html: string;
  /** The <script src> split out of `html` (absolute, deduplicated), to load once per page. */
  scripts: IframeScript[];
}

export interface IframeOptions {
  fetcher: Fetcher;
  maxWidth?: number;
  maxHeight?: number;
  signal?: AbortSignal;
  /** Sent to the provider (e.g. User-Agent); never the caller's `headers.*`. */
  headers?: Record<string, string>;
}

/** oEmbed answers are small; anything bigger is not one. */
export const MAX_OEMBED_BYTES = 256 * 1024;

/** Adds maxwidth/maxheight to the provider URL (the oEmbed spec's names). */
export function withSize(oembedUrl: string, size: { maxWidth?: number; maxHeight?: number }) {
  const url = new URL(oembedUrl);
  if (size.maxWidth && size.maxWidth > 0) url.searchParams.set("maxwidth", String(size.maxWidth));
  if (size.maxHeight && size.maxHeight > 0) {
    url.searchParams.set("maxheight", String(size.maxHeight));
  }
  return url.href;
}

/**
 * Fetches the provider's JSON answer, sized: the parsed object and the URL that answered (after
 * redirects), or null when anything fails.
 */
export async function fetchOembed(
  oembedUrl: string,
  options: IframeOptions,
): Promise<{ answer: Record<string, unknown>; url: string } | null> {
  if (options.signal?.aborted) return null;
  try {
    const url = withSize(oembedUrl, options);
    if (!absoluteUrl(url, url)) return null;
    const result = await options.fetcher.fetch(url, {
      headers: { accept: "application/json", ...options.headers },
      maxBytes: MAX_OEMBED_BYTES,
      signal: options.signal,
    });
    if (result.statusCode < 200 || result.statusCode > 299 || result.truncated) return null;
    const answer: unknown = parseJson(new TextDecoder().decode(result.body));
    if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return null;
    return { answer: answer as Record<string, unknown>, url: result.url };
  } catch {
    return null;
  }
}

/**
 * The provider endpoint for a page: its own discovery link wins, else the listed provider whose
 * scheme matches the page URL.
 */
export async function oembedEndpoint(
  page: { discovered: string | null; url: string },
): Promise<string | null> {
  return page.discovered ?? await registeredOembedUrl(page.url);
}

/** Fetches the provider's JSON and returns its embed HTML with scripts split out, or null. */
export async function fetchIframe(
  oembedUrl: string,
  options: IframeOptions,
): Promise<Iframe | null> {
  const fetched = await fetchOembed(oembedUrl, options);
  const html = fetched && embedHtml(fetched.answer);
  return html ? splitScripts(html, fetched.url) : null;
}

/** `html` for video/rich answers; an <img> built for photo answers. */
export function embedHtml(answer: unknown): string | null {
  if (answer === null || typeof answer !== "object") return null;
  const a = answer as Record<string, unknown>;
  if (typeof a.html === "string" && a.html.trim()) return a.html.trim();
  if (a.type === "photo" && typeof a.url === "string") {
    const src = absoluteUrl(a.url, a.url);
    if (!src) return null;
    const size = ["width", "height"]
      .filter((k) => Number.isFinite(Number(a[k])) && Number(a[k]) > 0)
      .map((k) => ` ${k}="${Number(a[k])}"`).join("");
    const alt = typeof a.title === "string" ? a.title : "";
    return `<img src="${escapeAttr(src)}"${size} alt="${escapeAttr(alt)}">`;
  }
  return null;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function iframeScript(attribs: Record<string, string>, providerUrl: string): IframeScript | null {
  const src = absoluteUrl(attribs.src ?? "", providerUrl);
  if (!src) return null;
  const script: IframeScript = { src };
  if ("async" in attribs) script.async = true;
  if ("defer" in attribs) script.defer = true;
  if (attribs.charset) script.charset = attribs.charset;
  if (attribs.type) script.type = attribs.type;
  return script;
}

/**
 * Cuts every `<script src>` element out of `html` (keeping the rest byte for byte) and lists
 * their sources as absolute URLs, resolved against the provider URL, deduplicated.
 */
export function splitScripts(html: string, providerUrl: string): Iframe {
  const cuts: Array<[number, number]> = [];
  const scripts: IframeScript[] = [];
  // A set, not a search of the list: an answer may hold 10,000 scripts (0.5 s searched).
  const seen = new Set<string>();
  let open: { start: number; attribs: Record<string, string> } | null = null;
  const parser = new LinearParser({
    onopentag(name, attribs) {
      if (name === "script") open = { start: parser.startIndex, attribs };
    },
    onclosetag(name) {
      if (name !== "script" || !open) return;
      if (open.attribs.src !== undefined) {
        cuts.push([open.start, parser.endIndex + 1]);
        const script = iframeScript(open.attribs, providerUrl);
        if (script && !seen.has(script.src)) {
          seen.add(script.src);
          scripts.push(script);
        }
      }
      open = null;
    },
  }, { lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  let out = "";
  let at = 0;
  for (const [start, end] of cuts) {
    out += html.slice(at, start);
    at = end;
  }
  out += html.slice(at);
  return { html: out.replace(/\n{2,}/g, "\n").trim(), scripts };
}
