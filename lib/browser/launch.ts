/** Finding the Chromium binary and launching it behind the egress proxy. */
import puppeteer, { type Browser } from "puppeteer-core";
import { ApiError } from "../util/errors.ts";

// Debian's /usr/bin/chromium is a shell wrapper adding extension flags; prefer the binary.
const CANDIDATES = [
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
  "/snap/bin/chromium",
];

/** The configured binary, else the first usual path that exists; EBROWSER when none does. */
export async function findChromium(configured: string | null): Promise<string> {
  const paths = configured ? [configured] : CANDIDATES;
  for (const path of paths) {
    try {
      const info = await Deno.stat(path);
      if (info.isFile) return path;
    } catch {
      // not there: try the next one
    }
  }
  throw new ApiError(
    "EBROWSER",
    configured
      ? `No browser available: CHROMIUM_PATH "${configured}" does not exist.`
      : `No browser available: Chromium was not found (tried ${CANDIDATES.join(", ")}); ` +
        "install it or set CHROMIUM_PATH.",
  );
}

/** Flags every launch uses; the proxy port routes all traffic, loopback included, through it. */
export function chromiumArgs(proxyPort: number): string[] {
  return [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-breakpad",
    "--disable-domain-reliability",
    "--metrics-recording-only",
    "--mute-audio",
    "--hide-scrollbars",
    "--window-size=1280,800",
    `--proxy-server=http://127.0.0.1:${proxyPort}`,
    // Chromium bypasses proxies for loopback by default; "<-loopback>" removes that rule.
    "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    // A memory bomb hits V8's heap limit and crashes its own tab, not the machine.
    "--js-flags=--max-old-space-size=512",
    "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider," +
    "InterestFeedContentSuggestions,CalculateNativeWinOcclusion,AutofillServerCommunication",
  ];
}

/** puppeteer's default flag that turns Chromium's popup blocker off; linkpeek leaves it out. */
export const POPUP_BLOCKING_OFF = "--disable-popup-blocking";

/**
 * puppeteer's default flag that turns off Chromium's throttling of a page's navigations (a
 * pushState or location.hash loop); linkpeek leaves it out. Off, a million pushState calls held
 * the browser process for seconds past the visit's deadline, stalled linkpeek's event loop 3 s,
 * and the context would not close, so the browser was replaced under every other visit.
 */
export const FLOOD_PROTECTION_OFF = "--disable-ipc-flooding-protection";

/** puppeteer's default flags every Chromium of linkpeek's is started without. */
export const LEFT_OUT_DEFAULTS = [POPUP_BLOCKING_OFF, FLOOD_PROTECTION_OFF];

export interface Launched {
  browser: Browser;
  userDataDir: string;
}

/** Launches headless Chromium over a pipe (no TCP debugging port) with a fresh profile. */
export async function launchChromium(
  options: { executablePath: string; proxyPort: number; timeoutMs?: number },
): Promise<Launched> {
  const userDataDir = await Deno.makeTempDir({ prefix: "linkpeek-chromium-" });
  try {
    const browser = await puppeteer.launch({
      executablePath: options.executablePath,
      pipe: true,
      headless: true,
      userDataDir,
      args: chromiumArgs(options.proxyPort),
      // puppeteer turns Chromium's popup blocker off; on, a page's script opens no window
      // without a user gesture (80 noopener popups once held 29 renderers and 3 GB).
      ignoreDefaultArgs: LEFT_OUT_DEFAULTS,
      defaultViewport: null,
      timeout: options.timeoutMs ?? 30_000,
      // Our own signal handling closes the pool; puppeteer's would race it.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return { browser, userDataDir };
  } catch (error) {
    await removeDir(userDataDir);
    throw new ApiError(
      "EBROWSER",
      `No browser available: Chromium at "${options.executablePath}" failed to start ` +
        `(${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`,
    );
  }
}

export async function removeDir(path: string): Promise<void> {
  // Chromium may still be flushing its profile for a moment after exit.
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await Deno.remove(path, { recursive: true });
      return;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
