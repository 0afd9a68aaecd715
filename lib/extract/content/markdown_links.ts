/**
 * Link targets for the Markdown views: absolute, without the campaign and click-tracking
 * parameters that only say how the reader arrived (utm_*, fbclid, gclid...), and none at all
 * for links that go nowhere a reader of the Markdown could follow (scripts; in-page jumps to
 * nothing the Markdown holds, as a script-driven menu's `#` or a dropped sidebar's anchor).
 */
import type { AnyNode, Element } from "domhandler";
import { absoluteUrl, attr, HEADING_TAGS } from "../dom/mod.ts";

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

/** The id an in-page link (`href="#id"`) points at, decoded; null for other links. */
export function fragment(link: Element): string | null {
  const href = attr(link, "href")?.trim() ?? "";
  if (!href.startsWith("#") || href.length === 1) return null;
  try {
    return decodeURIComponent(href.slice(1));
  } catch {
    return href.slice(1);
  }
}

/** How far up from a link its heading is looked for (the heading, a wrapper of its text). */
const SELF_LEVELS = 3;

/**
 * Whether an in-page link points at where it stands: at itself, or at the heading it is in
 * (MDN's headings and many CMSes' link to their own anchor). Its text is the heading's; as a
 * link it would only say "here".
 */
export function pointsAtItself(link: Element): boolean {
  const id = fragment(link);
  if (id === null) return false;
  if (link.attribs.id === id || link.attribs.name === id) return true;
  // Up to the heading around the link, none of its wrappers' ids counted without one.
  let named = false;
  let el: AnyNode | null = link.parent;
  for (let i = 0; i < SELF_LEVELS && el && el.type === "tag"; i++, el = el.parent) {
    const own = el as Element;
    named ||= own.attribs.id === id;
    if (HEADING_TAGS.has(own.name)) return named;
  }
  return false;
}
