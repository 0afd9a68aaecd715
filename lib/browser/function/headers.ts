/**
 * The `headers` a function receives, as Microlink documents them: "the request headers used to
 * fetch the target URL", here those the browser sent for the page's navigation (user-agent,
 * accept, accept-language, client hints...). The caller's own headers for the target
 * (`headers.*`, `x-api-header-*`, a URL's userinfo as Basic auth) are left out: they are
 * secrets meant for the target, and what a function sees it may return into an answer, a cache
 * entry or a log. A caller's user-agent is kept, as the browser applies it page-wide. Credential
 * headers (authorization, cookie, proxy-authorization) are never passed, whoever set them.
 */

const CREDENTIALS = new Set(["authorization", "cookie", "proxy-authorization"]);
/** Hop-by-hop: what Chromium said to linkpeek's egress proxy, not what the target got. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection"]);

export function functionHeaders(
  sent: Record<string, string>,
  callerHeaders: Record<string, string> | undefined,
): Record<string, string> {
  const secret = new Set(Object.keys(callerHeaders ?? {}).map((name) => name.toLowerCase()));
  secret.delete("user-agent");
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    const lower = name.toLowerCase();
    if (CREDENTIALS.has(lower) || HOP_BY_HOP.has(lower) || secret.has(lower)) continue;
    out[lower] = value;
  }
  return out;
}
