/**
 * `adblock` (default on) in one visit: ad and tracker requests blocked or stubbed by the Ghostery
 * engine, cookie-consent dialogs rejected by autoconsent, then ad slots hidden, in that order.
 * Engine and autoconsent assets load once per process, on the first visit that needs them.
 */
import type { HTTPRequest, Page } from "puppeteer-core";
import { log } from "../../util/log.ts";
import { type ConsentInstall, startConsent, uninstallConsent } from "./consent.ts";
import { hideAdSlots } from "./cosmetics.ts";
import { loadEngine } from "./engine.ts";
import { verdictFor } from "./network.ts";

export { engineLoad, loadEngine } from "./engine.ts";
export { type ConsentInstall, installConsent } from "./consent.ts";

/** How long a capture waits for a detected consent dialog to be answered. */
const CONSENT_WAIT_MS = 4000;

export interface Adblock {
  /** Blocks or stubs the request when the engine says so; false: the caller handles it. */
  intercept(request: HTTPRequest): boolean;
  /**
   * Before a capture: waits (at most `maxMs`) for the consent dialog to be answered, then hides
   * ad slots.
   */
  tidy(maxMs: number): Promise<void>;
}

const warned = new Set<string>();

/** A page that runs no autoconsent (adblock off, or no JavaScript) loses a spare's bundle. */
export async function withoutConsent(page: Page, installed: ConsentInstall | null): Promise<null> {
  if (installed) await uninstallConsent(page, installed);
  return null;
}

/** null (logged once per part) when a part cannot start: the visit goes on without it. */
async function orNull<T>(part: string, start: Promise<T>): Promise<T | null> {
  try {
    return await start;
  } catch (error) {
    if (!warned.has(part)) log.error(`adblock ${part} failed to start`, { error: String(error) });
    warned.add(part);
    return null;
  }
}

/**
 * Prepares a fresh page before it navigates; `javascript: false` pages get no autoconsent.
 * `consent`: the bundle already installed on the page (a spare's), if it is.
 */
export async function startAdblock(
  page: Page,
  options: { javascript: boolean; consent: ConsentInstall | null },
): Promise<Adblock> {
  const [engine, consent] = await Promise.all([
    orNull("engine", loadEngine()),
    options.javascript
      ? orNull("autoconsent", startConsent(page, options.consent))
      : withoutConsent(page, options.consent),
  ]);
  let blocked = 0;
  return {
    intercept(request) {
      const verdict = engine ? verdictFor(engine, request) : null;
      if (!verdict) return false;
      blocked++;
      const done = verdict.action === "block"
        ? request.abort("blockedbyclient")
        : request.respond({ status: 200, contentType: verdict.contentType, body: verdict.body });
      done.catch(() => {});
      return true;
    },
    async tidy(maxMs) {
      await consent?.settled(Math.min(maxMs, CONSENT_WAIT_MS));
      if (engine) await hideAdSlots(page, engine);
      log.debug("adblock before capture", { blocked, consent: consent?.answered() ?? null });
    },
  };
}
