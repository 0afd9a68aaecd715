/**
 * Link targets for the Markdown views: absolute, without the campaign and click-tracking
 * parameters that only say how the reader arrived (utm_*, fbclid, gclid...), and none at all
 * for links that go nowhere a reader of the Markdown could follow (scripts; in-page jumps to
 * nothing the Markdown holds, as a script-driven menu's `#` or a dropped sidebar's anchor).
 */
import { absoluteUrl } from "../dom/mod.ts";

/** Query parameters that track the click, never select the page. */
const TRACKING = new Set([
  "fbclid",
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "twclid",
  "ttclid",
  "igshid",
  "mc_cid",
  "mc_eid",
  "_hsenc",
  "_hsmi",
  "mkt_tok",
  "oly_anon_id",
  "oly_enc_id",
  "vero_id",
  "wickedid",
]);

/** Whether a query parameter only tracks: utm_* or one of TRACKING. */
export function isTrackingParam(name: string): boolean {
  const key = name.toLowerCase();
  return key.startsWith("utm_") || TRACKING.has(key);
}

/**
 * Where a link in the Markdown points, or null when it should read as plain text.
 * `inPageTarget`: for an in-page jump (`#id`), whether the rendered part holds its target.
 */
export function linkTarget(href: string, base: string, inPageTarget: boolean): string | null {
  const value = href.trim();
  if (!value || (value.startsWith("#") && !inPageTarget)) return null;
  const url = absoluteUrl(value, base);
  return url ? withoutTracking(url) : null;
}

/** `url` without tracking parameters (the rest keep their order and spelling). */
export function withoutTracking(url: string): string {
  const query = url.indexOf("?");
  if (query < 0) return url;
  const hash = url.indexOf("#", query);
  const end = hash < 0 ? url.length : hash;
  const kept = url.slice(query + 1, end).split("&").filter((pair) => {
    const name = pair.split("=", 1)[0]!;
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // Undecodable: compare as written.
    }
    return pair !== "" && !isTrackingParam(decoded);
  });
  const rest = hash < 0 ? "" : url.slice(hash);
  return url.slice(0, query) + (kept.length ? `?${kept.join("&")}` : "") + rest;
}
