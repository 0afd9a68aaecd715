/** Everything applied to a fresh page before it navigates: emulation, interception, hardening. */
import type { HTTPRequest, Page, Viewport } from "puppeteer-core";
import type { VisitOptions } from "./types.ts";
import { type Device, findDevice } from "./devices.ts";
import type { Adblock } from "./adblock/mod.ts";

const noop = () => {};
const PASS_SCHEMES = new Set(["data", "blob", "about"]);

/**
 * Run in every document before the page's scripts: the console's output goes nowhere. The
 * DevTools protocol sends linkpeek each message of a page's console, and nothing reads them: a
 * page logging in a loop (300,000 lines) spent over 10 s on that and timed out, where it loads
 * in well under a second without.
 */
const QUIET_CONSOLE = `(() => {
  const quiet = () => {};
  for (const name of Object.keys(console)) {
    if (typeof console[name] === "function") console[name] = quiet;
  }
  // An uncaught error or rejection is a console message too, unless its event is cancelled.
  const cancel = (event) => event.preventDefault();
  addEventListener("error", cancel);
  addEventListener("unhandledrejection", cancel);
})()`;

export interface PageState {
  /** Set once the main navigation is done; later main-frame navigations are refused. */
  navigated: boolean;
}

/**
 * Microlink's default device (its `device` and `viewport` docs): a capture with neither is
 * 1280x800 CSS pixels at 2x, a 2560x1600 image. Only its viewport is taken: the user agent stays
 * linkpeek's own (the preset's is a years-old Chrome's, to which pages may serve older markup).
 */
export const DEFAULT_DEVICE = "Macbook Pro 13";

/** The viewport when neither `device` nor `viewport` says otherwise; `viewport` overrides parts. */
export const DEFAULT_VIEWPORT: Readonly<Device["viewport"]> = Object.freeze({
  ...findDevice(DEFAULT_DEVICE).viewport,
});

/** Viewport from the device preset, overridden field by field by `viewport`. */
export function resolveViewport(options: VisitOptions) {
  const device = options.device ? findDevice(options.device) : null;
  const base = device?.viewport ?? DEFAULT_VIEWPORT;
  const viewport = { ...base };
  for (const [key, value] of Object.entries(options.viewport ?? {})) {
    if (value !== undefined) (viewport as Record<string, unknown>)[key] = value;
  }
  return { viewport, userAgent: device?.userAgent ?? null };
}

/**
 * Applies the options and installs the request handler: non-http(s) schemes are aborted, the
 * caller's headers go only to requests whose origin is the target's, and once the page has
 * loaded the main frame cannot navigate away (meta refresh, location=...) under the capture.
 */
export async function setupPage(
  page: Page,
  setup: {
    url: string;
    options: VisitOptions;
    defaultUserAgent: string;
    state: PageState;
    /** Ready by the time the page navigates (it is started beside this setup). */
    adblock: () => Adblock | null;
  },
): Promise<void> {
  const { options, state } = setup;
  const { viewport, userAgent } = resolveViewport(options);
  const headers = lowerCaseKeys(options.headers ?? {});
  // A caller's User-Agent is not a credential: it applies page-wide, like a device's.
  const callerAgent = headers["user-agent"];
  delete headers["user-agent"];
  const features = [];
  if (options.colorScheme) {
    features.push({ name: "prefers-color-scheme", value: options.colorScheme });
  }
  if (options.animations === false) {
    features.push({ name: "prefers-reduced-motion", value: "reduce" });
  }
  // Spare pages start at DEFAULT_VIEWPORT; re-applying it would cost a resize (~80 ms). Another
  // one goes first: a mobile or touch change reloads the page, which must not meet interception.
  if (!sameViewport(page.viewport(), viewport)) await page.setViewport(viewport);
  // The other settings are independent: sent at once rather than one round trip after another.
  await Promise.all([
    page.setUserAgent({
      userAgent: options.userAgent ?? callerAgent ?? userAgent ?? setup.defaultUserAgent,
    }),
    options.javascript === false ? page.setJavaScriptEnabled(false) : null,
    features.length ? page.emulateMediaFeatures(features) : null,
    options.mediaType ? page.emulateMediaType(options.mediaType) : null,
    page.setRequestInterception(true),
    page.evaluateOnNewDocument(QUIET_CONSOLE),
  ]);

  const targetOrigin = new URL(setup.url).origin;
  const hasHeaders = Object.keys(headers).length > 0;
  page.on("request", (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const url = request.url();
    const scheme = url.slice(0, url.indexOf(":")).toLowerCase();
    if (PASS_SCHEMES.has(scheme)) return void request.continue().catch(noop);
    if (scheme !== "http" && scheme !== "https") {
      return void request.abort("blockedbyclient").catch(noop);
    }
    if (state.navigated && request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      // 204 tells Chromium "stay on this document"; an abort would show an error page instead.
      return void request.respond({ status: 204, body: "" }).catch(noop);
    }
    if (setup.adblock()?.intercept(request)) return;
    if (hasHeaders && originOf(url) === targetOrigin) {
      return void request.continue({ headers: { ...request.headers(), ...headers } }).catch(noop);
    }
    request.continue().catch(noop);
  });
}

function sameViewport(current: Viewport | null, wanted: Viewport): boolean {
  if (!current) return false;
  const keys = ["width", "height", "deviceScaleFactor", "isMobile", "hasTouch", "isLandscape"];
  return keys.every((key) =>
    (current[key as keyof Viewport] ?? DEFAULT_VIEWPORT[key as keyof typeof DEFAULT_VIEWPORT]) ===
      wanted[key as keyof Viewport]
  );
}

function originOf(url: string): string | null {
  return URL.parse(url)?.origin ?? null;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
