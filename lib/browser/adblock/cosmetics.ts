/**
 * Cosmetic filtering: the engine's hiding rules for each frame's host, plus the generic rules
 * that match the ids, classes and links the frame's DOM really holds, injected as a stylesheet
 * just before the capture (after consent dialogs were answered: the cookie-notice lists would
 * otherwise hide a dialog before autoconsent could reject it).
 */
import type { Frame, Page } from "puppeteer-core";
import { type FiltersEngine, Request } from "@ghostery/adblocker";

/** Frames styled per visit (ad-heavy pages nest many; the rest keep their ads). */
const MAX_FRAMES = 16;
/** Distinct ids, classes and hrefs read from one frame's DOM. */
const MAX_FEATURES = 4000;

/** Runs in the frame: the DOM features generic filters are keyed on, bounded. */
const COLLECT_FEATURES = `(() => {
  const limit = ${MAX_FEATURES};
  const ids = new Set(), classes = new Set(), hrefs = new Set();
  const elements = document.querySelectorAll("[id],[class],a[href]");
  for (let i = 0; i < elements.length && i < limit * 4; i++) {
    const element = elements[i];
    if (element.id && ids.size < limit) ids.add(element.id);
    if (classes.size < limit) for (const name of element.classList) classes.add(name);
    const href = element.tagName === "A" && element.getAttribute("href");
    if (href && hrefs.size < limit) hrefs.add(href);
  }
  return { ids: [...ids], classes: [...classes], hrefs: [...hrefs] };
})()`;

/** Only strings, at most `limit` of them, each of a sane length: the page may lie. */
function cleanList(value: unknown, limit: number): string[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, limit).filter((v): v is string => typeof v === "string" && v.length < 512);
}

async function styleFrame(frame: Frame, engine: FiltersEngine): Promise<void> {
  const url = frame.url();
  if (!/^https?:/i.test(url)) return;
  const raw = await frame.evaluate(COLLECT_FEATURES).catch(() => null) as
    | Record<string, unknown>
    | null;
  const { hostname, domain } = Request.fromRawDetails({ url });
  const { active, styles } = engine.getCosmeticsFilters({
    url,
    hostname,
    domain: domain ?? "",
    ids: cleanList(raw?.ids, MAX_FEATURES),
    classes: cleanList(raw?.classes, MAX_FEATURES),
    hrefs: cleanList(raw?.hrefs, MAX_FEATURES),
    getBaseRules: true,
    getInjectionRules: false,
    getExtendedRules: false,
    getRulesFromHostname: true,
    getRulesFromDOM: true,
  });
  if (active && styles) await frame.addStyleTag({ content: styles });
}

/** Hides ad slots in the page and its first frames; a frame that fails keeps its ads. */
export async function hideAdSlots(page: Page, engine: FiltersEngine): Promise<void> {
  const frames = page.frames().filter((f) => !f.detached).slice(0, MAX_FRAMES);
  await Promise.all(frames.map((frame) => styleFrame(frame, engine).catch(() => {})));
}
