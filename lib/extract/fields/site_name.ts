/** The site's name as the page declares it, and its removal from a <title>. */
import type { Context } from "./rules.ts";
import { cleanText } from "./text.ts";

/** og:site_name, application-name or the JSON-LD publisher/WebSite name. */
export function siteNameOf(ctx: Context): string | null {
  for (const key of ["og:site_name", "application-name", "apple-mobile-web-app-title"]) {
    const v = cleanText(ctx.rec.meta.get(key)?.[0]);
    if (v) return v;
  }
  const ld = ctx.ld.first("publisher.name");
  return typeof ld === "string" ? cleanText(ld) : null;
}

const SEP = "\\s+[|\\-\u2013\u2014\u00b7\u2022:/»]\\s+";
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** "Story | Site" or "Site - Story" -> "Story", only when `site` is the name on the page. */
export function stripSiteName(title: string, site: string | null): string {
  const t = cleanText(title);
  if (!t || !site) return title;
  const name = esc(site);
  const stripped = t.replace(new RegExp(`${SEP}${name}$`, "i"), "")
    .replace(new RegExp(`^${name}${SEP}`, "i"), "");
  return stripped.length >= 3 ? stripped : t;
}

/** The last segment of "Story | Site" (publisher fallback from <title>). */
export function siteFromTitle(title: string): string | null {
  const m = /^.*?[-|]\s+(.*)$/.exec(title);
  if (!m) return null;
  let rest = m[1]!;
  for (let i = 0; i < 10; i++) {
    const next = /^.*?[-|]\s+(.*)$/.exec(rest);
    if (!next) break;
    rest = next[1]!;
  }
  return rest;
}
