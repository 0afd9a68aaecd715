/**
 * A fresh incognito context with a blank page costs a new renderer (~100-200 ms); keeping one
 * spare ready, never used before, takes that off each visit's path without sharing state.
 * The spare is opened once a visit is over (`refill()`), not as it starts: opened beside the
 * visit, its renderer's start-up took the CPU the visit's navigation needed (on 2 cores the
 * visit's navigation went from ~130 to ~330 ms).
 */
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { DEFAULT_VIEWPORT } from "./page_setup.ts";
import { type ConsentInstall, installConsent } from "./adblock/mod.ts";
import { log } from "../util/log.ts";

const noop = () => {};
/** A live renderer answers in a few ms; a dead one may never answer. */
const PROBE_MS = 1000;
/**
 * A spare still opening after this long is not waited for (its renderer may have died while it
 * opened, and then it never does): a fresh one is opened instead.
 */
const SPARE_WAIT_MS = 2000;
/** An opening past this is given up on and its context closed. */
const OPEN_MS = 10_000;

export interface Lease {
  context: BrowserContext;
  page: Page;
  /** adblock's consent bundle, installed ahead of demand on a spare (null: not installed). */
  consent: ConsentInstall | null;
}

export class SpareContexts implements AsyncDisposable {
  readonly #browser: Browser;
  #spare: Promise<Lease> | null = null;
  /** The spare's context as soon as it exists, so stats can leave it out. */
  #held: BrowserContext | null = null;
  #closed = false;
  /** The spare being opened, if any (settled() waits for it). */
  #opening: Promise<void> | null = null;

  constructor(browser: Browser) {
    this.#browser = browser;
  }

  /**
   * A never-used context and page: the spare when one is ready and its renderer still lives
   * (renderers die on their own, or all at once), else a new one. The next spare waits for
   * `refill()`.
   */
  async take(): Promise<Lease> {
    const spare = this.#spare;
    this.#spare = null;
    this.#held = null;
    let lease = spare ? await within(spare, SPARE_WAIT_MS).catch(() => null) : null;
    if (spare && !lease) this.#dispose(spare.then((late) => late.context.close()));
    if (lease && !(await this.#alive(lease))) {
      this.#dispose(lease.context.close());
      lease = null;
    }
    return lease ?? await this.#openFresh();
  }

  /**
   * A new context and page for a visit. Chromium now and then refuses a tab under load ("Failed
   * to open a new tab", seen right after a capture of a 100,000 px page while a spare was given
   * up on): one more try while the browser lives, within the visit's own deadline.
   */
  async #openFresh(): Promise<Lease> {
    try {
      return await this.#open(false);
    } catch (error) {
      if (this.#closed || !this.#browser.connected) throw error;
      log.warn("a new tab was refused; trying once more", {
        error: error instanceof Error ? error.message : String(error),
      });
      return await this.#open(false);
    }
  }

  /** Pages whose renderer crashed (puppeteer's "error" event). */
  readonly #crashed = new WeakSet<Page>();

  async #alive(lease: Lease): Promise<boolean> {
    const { page } = lease;
    return !this.#crashed.has(page) && await responsive(page) && !this.#crashed.has(page);
  }

  /** Whether `context` is the spare (not a visit's). */
  holds(context: BrowserContext): boolean {
    return context === this.#held;
  }

  /**
   * Resolves once no spare is being opened: a context exists a moment before it is known to be
   * the spare, so counting contexts is exact only then.
   */
  async settled(): Promise<void> {
    while (this.#opening || this.#disposing.size) {
      await this.#opening;
      await Promise.all(this.#disposing);
    }
  }

  /** Spares given up on, still closing. */
  readonly #disposing = new Set<Promise<void>>();

  #dispose(closing: Promise<unknown>): void {
    const done: Promise<void> = closing.then(noop, noop).finally(() =>
      this.#disposing.delete(done)
    );
    this.#disposing.add(done);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const spare = this.#spare;
    this.#spare = null;
    this.#held = null;
    await spare?.then((lease) => lease.context.close()).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Opens a spare unless one is ready or opening; called when a visit is over. */
  refill(): void {
    if (this.#closed || this.#spare || !this.#browser.connected) return;
    const spare = this.#open(true);
    this.#spare = spare;
    const opening = spare.then(noop, () => {
      if (this.#spare === spare) this.#spare = null;
    }).finally(() => {
      if (this.#opening === opening) this.#opening = null;
    });
    this.#opening = opening;
  }

  async #open(spare: boolean): Promise<Lease> {
    const creating = this.#browser.createBrowserContext();
    const context = await within(creating, OPEN_MS).catch((error) => {
      void creating.then((late) => late.close()).catch(noop);
      throw error;
    });
    if (spare && !this.#closed) this.#held = context;
    try {
      return await within(
        (async () => {
          const page = await context.newPage();
          page.once("error", () => this.#crashed.add(page));
          await page.setViewport(DEFAULT_VIEWPORT);
          await page.setContent("<p>warm</p>");
          // Most visits run adblock: its bundle goes in now, off their path (a visit that does
          // not want it takes it off). A failure here leaves it to the visit.
          const consent = spare ? await installConsent(page).catch(() => null) : null;
          return { context, page, consent };
        })(),
        OPEN_MS,
      );
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }
}

/** Whether the page's renderer answers at all (a dead one may never answer). */
export function responsive(page: Page): Promise<boolean> {
  if (page.isClosed()) return Promise.resolve(false);
  return within(page.evaluate("1"), PROBE_MS).then(() => true, () => false);
}

/** `promise`, or a rejection after `ms`: a dead renderer never answers. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  promise.catch(noop);
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
