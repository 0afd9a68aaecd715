/**
 * HTTP rules every part shares: which header names a caller may set, which describe only one
 * connection, a URL's port, Basic auth from userinfo. One home, so the query check, the
 * fetcher and the browser's proxy cannot disagree.
 */

/**
 * Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, never the resource; a
 * proxy drops them both ways.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "upgrade",
]);

/**
 * Request headers linkpeek sets itself: routing and framing (a caller could smuggle a second
 * request or another Host), `expect` (a 100-continue handshake the fetcher never makes).
 */
const OURS = new Set(["host", "content-length", "transfer-encoding", "expect"]);

/** True for a header name (lower-case) that describes one connection only. */
export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name);
}

/** True for a header name (lower-case) a caller may not set: `headers.<name>` is EINVALQUERY. */
export function isReservedHeader(name: string): boolean {
  return HOP_BY_HOP.has(name) || OURS.has(name) || name.startsWith("proxy-");
}

/**
 * A value HTTP carries as it is: visible ASCII, space, tab and printable Latin-1 (RFC 9110's
 * obs-text without the C1 controls). Control characters and code points above U+00FF are not.
 */
export function isHeaderValue(value: string): boolean {
  return !/[^\t\x20-\x7e\xa0-\xff]/.test(value);
}

/** The port a URL connects to, defaults included. */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/**
 * `Basic …` for a URL's userinfo (percent-escapes decoded, sent as UTF-8, as browsers do), or
 * null when there is none. A malformed escape is sent as written.
 */
export function basicAuth(userinfo: { username: string; password: string }): string | null {
  const { username, password } = userinfo;
  if (!username && !password) return null;
  const pair = `${safeDecode(username)}:${safeDecode(password)}`;
  const bytes = new TextEncoder().encode(pair);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
