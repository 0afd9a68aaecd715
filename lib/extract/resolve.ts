/** URL normaliser: absolute http(s) URLs resolved against the page (and its <base href>). */

export interface UrlContext {
  /** The page URL. */
  url: string;
  /** Base for relative URLs: <base href> resolved against the page URL, or the page URL. */
  base: string;
}

/** The base URL for a page: a valid http(s) <base href> wins over the page URL. */
export function baseFor(pageUrl: string, baseHref: string | null): string {
  if (!baseHref) return pageUrl;
  try {
    const b = new URL(baseHref.trim(), pageUrl);
    if (b.protocol === "http:" || b.protocol === "https:") return b.href;
  } catch {
    // an invalid base href is ignored, as browsers do
  }
  return pageUrl;
}

/** Absolute http(s) URL for `value`, or null. Protocol-relative URLs take the page's scheme. */
export function resolveUrl(value: unknown, ctx: UrlContext): string | null {
  if (typeof value !== "string") return null;
  const raw = value.replace(/[\t\n\r]/g, "").trim();
  if (raw === "" || raw.startsWith("#")) return null;
  try {
    const u = raw.startsWith("//")
      ? new URL(`${new URL(ctx.url).protocol}${raw}`)
      : new URL(raw, ctx.base);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    // dotless names ("http://logo") are junk on the web; IP literals and localhost are kept
    const h = u.hostname;
    if (!h.includes(".") && !h.startsWith("[") && h !== "localhost") return null;
    // Percent-escapes of characters that need none are undone ("%28" -> "("), as
    // Microlink's normalised URLs read.
    try {
      u.pathname = decodeURI(u.pathname);
    } catch {
      // malformed escapes stay as they are
    }
    return u.href;
  } catch {
    return null;
  }
}

/** Lower-case file extension of a URL's path ("" when none). */
export function extensionOf(url: string): string {
  try {
    const path = new URL(url).pathname;
    const m = /\.([a-z0-9]{1,5})$/i.exec(path);
    return m ? m[1]!.toLowerCase() : "";
  } catch {
    return "";
  }
}
