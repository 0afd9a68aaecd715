/** URL parsing and display rules shared by every hop. */
import { ApiError } from "../errors.ts";

/** Parses with WHATWG rules (against `base` for a redirect Location); only http(s) passes. */
export function parseTargetUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new ApiError("EINVALURL", `The URL \`${text}\` is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError(
      "EINVALURL",
      `The URL \`${redact(url)}\` is not a valid URL: only http and https are supported.`,
    );
  }
  return url;
}

/** The URL without userinfo, for messages and logs. */
export function redact(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

/** The port a URL connects to, defaults included. */
export function urlPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/**
 * A Location header as text. Node hands header bytes over as Latin-1; servers that send raw
 * UTF-8 there mean UTF-8 (browsers read it so), so such values are re-decoded.
 */
export function locationText(raw: string): string {
  const codes = Array.from(raw, (c) => c.charCodeAt(0));
  if (!codes.some((c) => c > 0x7f) || codes.some((c) => c > 0xff)) return raw;
  const bytes = Uint8Array.from(codes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return raw;
  }
}
