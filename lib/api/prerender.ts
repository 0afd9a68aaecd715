/**
 * `prerender=auto`: is the fetched HTML a page worth extracting, or something only a browser
 * can turn into one? Decided from the markers real ones carry (tests/api/prerender_test.ts holds
 * an imitation of each): bot-management challenges, meta-refresh walls, "enable JavaScript"
 * pages and application shells whose content is made by script. A page with text is never
 * rendered, whatever scripts it has.
 */

export type PrerenderReason = "challenge" | "refresh" | "noscript" | "shell";

/** Only the start of a page is read: challenges and shells are small. */
const MAX_SCAN = 256 * 1024;
/** Visible text (collapsed) below which a page holds nothing to extract. */
const LITTLE_TEXT = 200;
/** Weak challenge wording counts only on pages with at most this much text. */
const CHALLENGE_TEXT = 1000;

/** Markup only a bot-management interstitial carries: enough on any status. */
const CHALLENGE_MARKERS = [
  "/cdn-cgi/challenge-platform/", // Cloudflare
  "window._cf_chl_opt",
  "cf-browser-verification",
  "captcha-delivery.com", // DataDome
  "px-captcha", // HUMAN (PerimeterX)
  "window._pxappid",
  "_incapsula_resource", // Imperva
  "/_sec/cp_challenge/", // Akamai
  "sec-if-cpt-container",
  "sucuri_cloudproxy_js", // Sucuri
  "awswafintegration", // AWS WAF
  "ddos-guard", // DDoS-Guard
  "vercel security checkpoint", // Vercel
  "kpsdk", // Kasada
];
/** Wording of challenges that ordinary pages may also use: counts on a challenge status or a bare page. */
const CHALLENGE_WORDS = [
  "<title>just a moment...</title>",
  "checking your browser",
  "checking if the site connection is secure",
  "enable javascript and cookies to continue",
  "please enable js and disable any ad blocker",
  "verify you are human",
];
const CHALLENGE_STATUS = new Set([202, 403, 429, 503]);
/** The markers as one pattern: one pass over a large page instead of one per marker. */
const ANY_MARKER = new RegExp(
  CHALLENGE_MARKERS.map((marker) => marker.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"),
);

// Inside a tag the patterns read `[^<>]*`, never `[^>]*`: a tag never closed then ends at the
// next `<`, and a page of thousands of them is read once, not to its end once per tag.

/** Where a single-page application mounts (React, Next, Nuxt, Vue, Svelte, Angular, Qwik...). */
const MOUNT_POINT =
  /<(div|main|section)\b[^<>]*\bid=["']?(root|app|__next|__nuxt|svelte|q-app|main|application|react-root|ember-app)\b|<app-root\b|<[a-z]+-app\b/;
const SCRIPT = /<script\b[^<>]*\bsrc=|<script\b[^<>]*type=["']?module|\bimport\(/;
/** A script element with code in it (not data: JSON, templates, import maps). */
const INLINE_SCRIPT =
  /<script\b(?![^<>]*\btype=["']?(?:application\/(?:ld\+)?json|text\/(?:template|x-template|html)|importmap|speculationrules))[^<>]*>\s*[^\s<]/;
const META_REFRESH = /<meta\b[^<>]*http-equiv=["']?refresh/;
/** A `<noscript>` opening tag, read where its `<` is (sticky). */
const NOSCRIPT_TAG = /<noscript\b[^<>]*>/y;
/** How far after a `<noscript>` its "enable JavaScript" message is looked for. */
const NOSCRIPT_REACH = 2000;

/**
 * Why `html` should be rendered in the browser, or null when the fetched page will do. A page
 * with more text than a challenge shows, on an ordinary status, is done with after counting
 * that much text: bot-management vendors inject their scripts (Cloudflare's challenge-platform
 * detection) into ordinary pages too, which the browser would render for nothing, and a page of
 * text is never a shell or a wall. Everything else reads the page's start in lower case.
 */
export function prerenderReason(html: string, statusCode: number): PrerenderReason | null {
  const text = visibleTextLength(html, CHALLENGE_TEXT + 1);
  const challengeStatus = CHALLENGE_STATUS.has(statusCode);
  if (text > CHALLENGE_TEXT && !challengeStatus) return null;
  const page = html.slice(0, MAX_SCAN).toLowerCase();
  if (ANY_MARKER.test(page)) return "challenge";
  if (
    (challengeStatus || text <= CHALLENGE_TEXT) &&
    CHALLENGE_WORDS.some((words) => page.includes(words))
  ) return "challenge";
  if (html.length > MAX_SCAN || text > LITTLE_TEXT) return null;
  if (META_REFRESH.test(page)) return "refresh";
  // A shell's own <noscript> ("You need to enable JavaScript to run this app") makes it no wall.
  // A single-file build inlines the whole app: an empty mount point and code, no src.
  const mount = MOUNT_POINT.test(page);
  if ((SCRIPT.test(page) && (mount || text === 0)) || (mount && INLINE_SCRIPT.test(page))) {
    return describedAlready(page) ? null : "shell";
  }
  if (noscriptNamesJavascript(page)) return "noscript";
  return null;
}

/**
 * Whether "javascript" starts within NOSCRIPT_REACH characters after a `<noscript>` tag. The
 * next "javascript" is looked up again only once a tag lies past it, so a page of thousands of
 * `<noscript>` is read about once, not NOSCRIPT_REACH characters per tag.
 */
function noscriptNamesJavascript(page: string): boolean {
  let word = -2; // -2: not looked up yet; -1: none ahead
  for (let at = page.indexOf("<noscript"); at >= 0; at = page.indexOf("<noscript", at + 1)) {
    NOSCRIPT_TAG.lastIndex = at;
    if (!NOSCRIPT_TAG.test(page)) continue;
    const body = NOSCRIPT_TAG.lastIndex;
    if (word === -2 || (word >= 0 && word < body)) word = page.indexOf("javascript", body);
    if (word < 0) return false;
    if (word - body <= NOSCRIPT_REACH) return true;
  }
  return false;
}

/**
 * A shell whose tags already give title, description and image was made to be previewed:
 * rendering it would add nothing to the default fields.
 */
function describedAlready(page: string): boolean {
  const has = (names: string) =>
    new RegExp(`<meta\\b[^<>]*(property|name)=["']?(${names})["'\\s>]`).test(page);
  return has("og:title|twitter:title") && has("og:description|twitter:description|description") &&
    has("og:image|twitter:image");
}

/** Elements whose text is not page content, each with the search for its end tag. */
const SKIPPED = new Map(
  ["script", "style", "noscript", "template", "title", "svg"].map((name) => [
    name,
    new RegExp(`</${name}`, "gi"),
  ]),
);
/** A tag's name, read where its `<` is (sticky: no copy of the page's rest). */
const TAG_NAME = /<([a-zA-Z0-9-]{1,20})/y;

/**
 * Length of the page's visible text with runs of whitespace counted once, counting stops at
 * `stop`; markup in any case. One pass with indexOf: linear in the page, whatever its markup.
 */
export function visibleTextLength(page: string, stop: number): number {
  let count = 0;
  let space = true;
  let i = 0;
  while (i < page.length && count < stop) {
    const open = page.indexOf("<", i);
    const end = open < 0 ? page.length : open;
    for (let j = i; j < end && count < stop; j++) {
      const c = page.charCodeAt(j);
      const blank = c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
      if (blank) {
        if (!space) count++;
        space = true;
      } else {
        count++;
        space = false;
      }
    }
    if (open < 0) break;
    const close = page.indexOf(">", open);
    if (close < 0) break;
    i = close + 1;
    const closing = page[close - 1] !== "/" ? skippedBy(page, open, close) : undefined;
    if (closing) {
      closing.lastIndex = i;
      i = closing.exec(page)?.index ?? page.length;
    }
  }
  return count;
}

/**
 * The end-tag search of the element whose start tag spans `open` to `close`, when its text is
 * skipped. Most tags are none of those: their first letter says so without reading the name.
 */
function skippedBy(page: string, open: number, close: number): RegExp | undefined {
  const first = page.charCodeAt(open + 1) | 0x20;
  // s(cript, tyle, vg), n(oscript), t(emplate, itle)
  if (first !== 0x73 && first !== 0x6e && first !== 0x74) return undefined;
  TAG_NAME.lastIndex = open;
  const match = TAG_NAME.exec(page);
  if (!match || open + match[0].length > close) return undefined;
  return SKIPPED.get(match[1]!.toLowerCase());
}
