/** URL normaliser: absolute http(s) URLs resolved against the page (and its <base href>). */
import { httpUrl } from "../../util/target_url.ts";

export interface UrlContext {
  /** The page URL. */
  url: string;
  /** Base for relative URLs: <base href> resolved against the page URL, or the page URL. */
  base: string;
}

/** The base URL for a page: a valid http(s) <base href> wins over the page URL. */
export function baseFor(pageUrl: string, baseHref: string | null): string {
  // An invalid base href is ignored, as browsers do.
  return (baseHref && httpUrl(baseHref.trim(), pageUrl)?.href) || pageUrl;
}

/** Absolute http(s) URL for `value`, or null. Protocol-relative URLs take the page's scheme. */
export function resolveUrl(value: unknown, ctx: UrlContext): string | null {
  if (typeof value !== "string") return null;
  const raw = value.replace(/[\t\n\r]/g, "").trim();
  if (raw === "" || raw.startsWith("#")) return null;
  const u = raw.startsWith("//") ? schemeRelative(raw, ctx.url) : httpUrl(raw, ctx.base);
  if (!u) return null;
  // dotless names ("http://logo") are junk on the web; IP literals and localhost are kept
  const h = u.hostname;
  if (!h.includes(".") && !h.startsWith("[") && h !== "localhost") return null;
  // Percent-escapes of characters that need none are undone ("%28" -> "("), as
  // Microlink's normalised URLs read.
  try {
    const path = decodeURI(u.pathname);
    // Setting the path parses the URL again: only when there is an escape to undo.
    if (path !== u.pathname) u.pathname = path;
  } catch {
    // malformed escapes stay as they are
  }
  return u.href;
}

/** A protocol-relative URL (`//host/path`) with the page's scheme. */
function schemeRelative(raw: string, pageUrl: string): URL | null {
  const page = URL.parse(pageUrl);
  return page && httpUrl(`${page.protocol}${raw}`);
}

/** Lower-case file extension of a URL's path ("" when none). */
export function extensionOf(url: string): string {
  const m = /\.([a-z0-9]{1,5})$/i.exec(URL.parse(url)?.pathname ?? "");
  return m ? m[1]!.toLowerCase() : "";
}
