/**
 * A visit's context holds the visit's own tab and the tabs linkpeek opens beside it (a code
 * view, an overlay); every other tab is a popup and is closed as it appears. "Has an opener" is
 * not the test: a `noopener` popup, or one whose opener already closed, has none that puppeteer
 * can name, and 80 of them once took a visit to 29 renderers and 3 GB.
 */
import type { BrowserContext, Page, Target } from "puppeteer-core";

const noop = () => {};

/** What a visit's steps open their own tabs with (the context's `newPage`, counted as own). */
export type TabOpener = Pick<BrowserContext, "newPage">;

/** Starts closing popups in `context`; the returned opener opens tabs that are kept. */
export function guardPopups(context: BrowserContext, page: Page): TabOpener {
  const own = new Set<Target>([page.target()]);
  /** Own tabs being opened: a page target seen meanwhile may be one of them. */
  let opening = 0;
  let opened: Promise<unknown> = Promise.resolve();

  const close = (target: Target) => void target.page().then((p) => p?.close()).catch(noop);
  context.on("targetcreated", (target: Target) => {
    if (target.type() !== "page" || own.has(target)) return;
    if (opening === 0) return close(target);
    // Decided once the own tabs opening now are known.
    void opened.finally(() => {
      if (!own.has(target)) close(target);
    });
  });

  return {
    newPage: (options) => {
      opening++;
      const tab = context.newPage(options).then((created) => {
        own.add(created.target());
        return created;
      }).finally(() => opening--);
      opened = Promise.allSettled([opened, tab]);
      return tab;
    },
  };
}
