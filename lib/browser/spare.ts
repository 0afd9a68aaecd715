/**
 * A fresh incognito context with a blank page costs a new renderer (~100-200 ms); keeping one
 * spare ready, never used before, takes that off each visit's path without sharing state.
 */
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { DEFAULT_VIEWPORT } from "./page_setup.ts";

const noop = () => {};

export interface Lease {
  context: BrowserContext;
  page: Page;
}

export class SpareContexts {
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

  /** A never-used context and page: the spare when one is ready, else a new one. */
  async take(): Promise<Lease> {
    const spare = this.#spare;
    this.#spare = null;
    this.#held = null;
    const lease = spare ? await spare.catch(() => this.#open(false)) : await this.#open(false);
    this.#refill();
    return lease;
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
    while (this.#opening) await this.#opening;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const spare = this.#spare;
    this.#spare = null;
    this.#held = null;
    await spare?.then((lease) => lease.context.close()).catch(() => {});
  }

  #refill(): void {
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
    const context = await this.#browser.createBrowserContext();
    if (spare && !this.#closed) this.#held = context;
    try {
      const page = await context.newPage();
      await page.setViewport(DEFAULT_VIEWPORT);
      await page.setContent("<p>warm</p>");
      return { context, page };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }
}
