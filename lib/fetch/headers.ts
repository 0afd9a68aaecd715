/** The request headers of one hop: defaults, caller headers, origin-only headers. */
import { ApiError } from "../errors.ts";

// Connection management is ours; a caller cannot smuggle framing or a different Host.
const RESERVED = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A value HTTP carries as it is: visible ASCII, space, tab and printable Latin-1 (RFC 9110's
 * obs-text without the C1 controls). Control characters and code points above U+00FF are not.
 */
export function isHeaderValue(value: string): boolean {
  return !/[^\t\x20-\x7e\xa0-\xff]/.test(value);
}

export const DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
export const ACCEPT_ENCODING = "gzip, deflate, br";

function merge(into: Record<string, string>, extra: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(extra ?? {})) {
    const key = name.toLowerCase();
    if (!TOKEN.test(name) || !isHeaderValue(String(value))) {
      throw new ApiError("EINVALQUERY", `The header \`${name}\` has an invalid name or value.`);
    }
    if (RESERVED.has(key) || key.startsWith("proxy-")) continue;
    into[key] = String(value);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface HopHeaderOptions {
  userAgent: string;
  headers?: Record<string, string>;
  /** Present only while the hop is same-origin with the first URL. */
  originHeaders?: Record<string, string>;
  /** URL userinfo, sent as Basic auth like a browser would (same origin only). */
  userinfo?: { username: string; password: string };
}

export function hopHeaders(options: HopHeaderOptions): Record<string, string> {
  const out: Record<string, string> = {
    "user-agent": options.userAgent,
    accept: DEFAULT_ACCEPT,
    "accept-encoding": ACCEPT_ENCODING,
  };
  const info = options.userinfo;
  if (info && (info.username || info.password)) {
    const pair = `${safeDecode(info.username)}:${safeDecode(info.password)}`;
    const bytes = new TextEncoder().encode(pair);
    out.authorization = `Basic ${btoa(String.fromCharCode(...bytes))}`;
  }
  // The fetch's own headers last: a caller's headers.accept-encoding must not undo a probe's
  // identity encoding or Range.
  merge(out, options.originHeaders);
  merge(out, options.headers);
  return out;
}
