/** The request headers of one hop: defaults, caller headers, origin-only headers. */
import { ApiError } from "../util/errors.ts";
import { basicAuth, isHeaderValue, isReservedHeader } from "../util/http.ts";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
export const ACCEPT_ENCODING = "gzip, deflate, br";

function merge(into: Record<string, string>, extra: Record<string, string> | undefined): void {
  for (const [name, value] of Object.entries(extra ?? {})) {
    const key = name.toLowerCase();
    if (!TOKEN.test(name) || !isHeaderValue(String(value))) {
      throw new ApiError("EINVALQUERY", `The header \`${name}\` has an invalid name or value.`);
    }
    if (isReservedHeader(key)) continue; // refused by the query check; ours in any case
    into[key] = String(value);
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
  const authorization = options.userinfo && basicAuth(options.userinfo);
  if (authorization) out.authorization = authorization;
  // The fetch's own headers last: a caller's headers.accept-encoding must not undo a probe's
  // identity encoding or Range.
  merge(out, options.originHeaders);
  merge(out, options.headers);
  return out;
}

/** An answer's raw `[name, value, …]` list as lower-cased names, repeated ones joined by ", ". */
export function joinRawHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    // Own keys only: a target may name a header `constructor`.
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}
