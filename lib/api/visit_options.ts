import type { VisitOptions, WaitUntil } from "../browser/types.ts";
import type { Params } from "../params/mod.ts";

/**
 * Maps the request's browser-related parameters onto one page visit. `headers.*` go along only
 * while the page visited is on the target's own origin: after a cross-origin redirect the
 * fetcher dropped them, and the browser must not hand them to the new origin either.
 */
export function visitOptions(
  params: Params,
  visit: { html: boolean; target: URL; url: string },
): VisitOptions {
  const { html } = visit;
  const page = params.page;
  const waitUntil = page.waitUntil?.filter((w): w is WaitUntil => w !== "auto");
  return {
    html,
    screenshot: params.screenshot ?? undefined,
    pdf: params.pdf ?? undefined,
    viewport: page.viewport,
    device: page.device,
    colorScheme: page.colorScheme === "no-preference" ? undefined : page.colorScheme,
    waitUntil: waitUntil?.length ? waitUntil : undefined,
    waitForSelector: page.waitForSelector,
    waitForTimeout: page.waitForTimeout,
    javascript: page.javascript,
    animations: page.animations,
    click: page.click,
    scroll: page.scroll,
    styles: page.styles,
    scripts: page.scripts,
    mediaType: page.mediaType,
    adblock: page.adblock,
    proxy: params.proxy ?? undefined,
    headers: new URL(visit.url).origin === visit.target.origin
      ? withUserinfo(params.headers, visit.target)
      : undefined,
  };
}

/** Userinfo in the target URL becomes Basic auth, as the fetcher sends it (same origin only). */
export function withUserinfo(headers: Record<string, string>, target: URL): Record<string, string> {
  if ((!target.username && !target.password) || headers.authorization) return headers;
  const userinfo = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
  const bytes = new TextEncoder().encode(userinfo);
  return { ...headers, authorization: `Basic ${btoa(String.fromCharCode(...bytes))}` };
}
