/** The target URL rules, for the query's `url` and every redirect hop alike. */
import { ApiError } from "./errors.ts";

/**
 * Seed URL rules 1-3: WHATWG-valid, absolute (or resolved against `base`, for a redirect's
 * Location), http or https, with a host. Fragments and IDNs are fine.
 */
export function parseTargetUrl(text: string | null, base?: URL): URL {
  if (text === null || (!base && text.trim() === "")) {
    throw new ApiError("EINVALURL", "The `url` parameter is required.");
  }
  const url = URL.parse(text.trim(), base);
  if (!url) throw new ApiError("EINVALURL", `The URL \`${text}\` is not a valid URL.`);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError("EINVALURL", `The URL \`${redact(url)}\` must use http or https.`);
  }
  if (!url.hostname) throw new ApiError("EINVALURL", `The URL \`${redact(url)}\` has no host.`);
  return url;
}

/** `text` (against `base`) as an http(s) URL, or null: not a URL, or another scheme. */
export function httpUrl(text: string, base?: string | URL): URL | null {
  const url = URL.parse(text, base);
  return url && (url.protocol === "http:" || url.protocol === "https:") ? url : null;
}

/** The URL without userinfo, for messages and logs. */
export function redact(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}
