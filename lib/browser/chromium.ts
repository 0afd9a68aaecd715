/**
 * The browser pool's one Chromium: launched on first need behind the egress proxy, launched
 * again after it crashed or was discarded, shut down (killed if it will not close) on close.
 */
import type { Browser } from "puppeteer-core";
import { ApiError } from "../util/errors.ts";
import { log, outsideRequest } from "../util/log.ts";
import { settlesWithin } from "../util/deadline.ts";
import { findChromium, launchChromium, removeDir } from "./launch.ts";
import { SpareContexts } from "./spare.ts";
import { RendererMemoryWatch } from "./renderer_memory.ts";

/** One launched Chromium and what belongs to it. */
export interface Running {
  browser: Browser;
  spares: SpareContexts;
  memory: RendererMemoryWatch;
  userDataDir: string;
  userAgent: string;
}

export interface ChromiumOptions {
  /** CHROMIUM_PATH, or null to look in the usual places. */
  chromiumPath: string | null;
  /** The guarded egress proxy's port: all of Chromium's traffic goes through it. */
  egressPort: () => Promise<number>;
  /** A renderer over this resident size is killed. */
  pageMemoryBytes: number;
  /** True while visits run: the renderers' memory is watched only then. */
  busy: () => boolean;
}

export class Chromium implements AsyncDisposable {
  readonly #options: ChromiumOptions;
  #running: Running | null = null;
  #launching: Promise<Running> | null = null;
  #launches = 0;
  #closed = false;

  constructor(options: ChromiumOptions) {
    this.#options = options;
  }

  /** The Chromium running now, null when none is. */
  get running(): Running | null {
    return this.#running;
  }

  /** How many times Chromium was launched (relaunches included). */
  get launches(): number {
    return this.#launches;
  }

  /** The running Chromium, launching it (once, shared) when there is none. */
  async get(): Promise<Running> {
    if (this.#closed) throw closedError();
    if (this.#running?.browser.connected) return this.#running;
    if (!this.#launching) {
      // Outside the waiting request: the browser and its proxy outlive it, and their later
      // log lines belong to no request.
      this.#launching = outsideRequest(() => this.#launch()).then((r) => {
        if (this.#closed) {
          void shutdown(r);
          throw closedError();
        }
        return (this.#running = r);
      }).finally(() => (this.#launching = null));
    }
    return await this.#launching;
  }

  /** Shuts `r` down if it is still the running one; the next get() launches another. */
  discard(r: Running): void {
    if (this.#running !== r) return;
    this.#running = null;
    void shutdown(r);
  }

  /** No launch from now on; resolves once a launch under way has ended. */
  async endLaunches(): Promise<void> {
    this.#closed = true;
    await this.#launching?.catch(() => {});
  }

  /** Ends launches and shuts the running Chromium down. */
  async close(): Promise<void> {
    await this.endLaunches();
    const r = this.#running;
    if (!r) return;
    this.#running = null;
    await shutdown(r);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #launch(): Promise<Running> {
    const executablePath = await findChromium(this.#options.chromiumPath);
    const proxyPort = await this.#options.egressPort();
    const { browser, userDataDir } = await launchChromium({ executablePath, proxyPort });
    this.#launches++;
    const userAgent = (await browser.userAgent()).replace("HeadlessChrome", "Chrome");
    const current: Running = {
      browser,
      userDataDir,
      userAgent,
      spares: new SpareContexts(browser),
      memory: new RendererMemoryWatch(browser, {
        limitBytes: this.#options.pageMemoryBytes,
        busy: this.#options.busy,
      }),
    };
    browser.on("disconnected", () => {
      if (this.#running === current) this.#running = null;
      current.memory.stop();
      void current.spares.close();
      log.warn("browser disconnected", { pid: browser.process()?.pid ?? null });
      void removeDir(userDataDir);
    });
    log.info("browser launched", {
      pid: browser.process()?.pid ?? null,
      launches: this.#launches,
    });
    return current;
  }
}

/** Every refusal of a closed pool, whether a visit waits for a page or for a launch. */
export function closedError(): ApiError {
  return new ApiError("EBROWSER", "No browser available: the pool is closed.");
}

async function shutdown(r: Running): Promise<void> {
  r.memory.stop();
  await r.spares.close();
  if (!await settlesWithin(r.browser.close(), 5000)) kill(r);
  await removeDir(r.userDataDir);
}

function kill(r: Running): void {
  try {
    r.browser.process()?.kill("SIGKILL");
  } catch {
    // already gone
  }
}
