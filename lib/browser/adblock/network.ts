/** The engine's verdict on one request the page makes: let it through, block it, or stub it. */
import type { HTTPRequest } from "puppeteer-core";
import { type FiltersEngine, Request } from "@ghostery/adblocker";

export type Verdict =
  | { action: "block" }
  /** A neutral stand-in (e.g. an empty analytics.js) that keeps the page's own code running. */
  | { action: "stub"; contentType: string; body: Uint8Array | string };

/**
 * null lets the request through. The page's own document is never blocked: the visit asked for
 * it. Subframe documents (ad iframes) and every sub-resource are judged against the top-level
 * page, as a browser extension would.
 */
export function verdictFor(engine: FiltersEngine, request: HTTPRequest): Verdict | null {
  const frame = request.frame();
  const type = request.resourceType();
  if (type === "document" && (!frame || frame.parentFrame() === null)) return null;
  const { match, redirect } = engine.match(Request.fromRawDetails({
    url: request.url(),
    type,
    sourceUrl: topLevelUrl(frame),
  }));
  if (redirect) {
    const base64 = redirect.contentType.endsWith(";base64");
    return {
      action: "stub",
      contentType: base64 ? redirect.contentType.slice(0, -";base64".length) : redirect.contentType,
      body: base64 ? Uint8Array.from(atob(redirect.body), (c) => c.charCodeAt(0)) : redirect.body,
    };
  }
  return match ? { action: "block" } : null;
}

function topLevelUrl(frame: ReturnType<HTTPRequest["frame"]>): string {
  let top = frame;
  while (top?.parentFrame()) top = top.parentFrame();
  return top?.url() ?? "";
}
