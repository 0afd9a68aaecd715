/**
 * One Lighthouse run, in a Worker (LighthouseRunner starts it). Lighthouse's trace
 * processing blocks its thread for 0.3-0.5 s at a time, so it never runs on the server's.
 * Its Chromium is the server thread's (lighthouse_chromium.ts: same binary, same flags, behind
 * linkpeek's guarded egress proxy); this Worker reaches it over CDP relayed through that thread,
 * so ending the Worker at any moment can never leave a Chromium behind.
 */
import puppeteer from "puppeteer-core";
import type lighthouse from "lighthouse";
import { ApiError } from "../util/errors.ts";
import type {
  LighthouseInput,
  LighthouseJob,
  LighthouseMessage,
  LighthousePreset,
} from "./lighthouse_types.ts";
import { RelayTransport } from "./relay_transport.ts";

declare const self: {
  onmessage: ((event: MessageEvent<LighthouseInput>) => void) | null;
  postMessage(message: LighthouseMessage): void;
};

/** Parts of the report that are the tool's own bookkeeping, not findings (about 40% of it). */
const DROPPED = ["i18n", "timing", "fullPageScreenshot"];

const transport = new RelayTransport((message) => self.postMessage({ type: "cdp", message }));

type LighthouseLocale = NonNullable<NonNullable<Parameters<typeof lighthouse>[1]>["locale"]>;

/** Each preset's Lighthouse config, imported only when asked for (`default`: none needed). */
const PRESETS: Record<LighthousePreset, () => Promise<unknown>> = {
  default: () => Promise.resolve(undefined),
  mobile: () => Promise.resolve(undefined),
  desktop: () => import("lighthouse/core/config/desktop-config.js").then((m) => m.default),
  experimental: () =>
    import("lighthouse/core/config/experimental-config.js").then((m) => m.default),
  full: () => import("lighthouse/core/config/full-config.js").then((m) => m.default),
  "lr-desktop": () => import("lighthouse/core/config/lr-desktop-config.js").then((m) => m.default),
  "lr-mobile": () => import("lighthouse/core/config/lr-mobile-config.js").then((m) => m.default),
  perf: () => import("lighthouse/core/config/perf-config.js").then((m) => m.default),
};

async function run(job: LighthouseJob): Promise<LighthouseMessage> {
  const browser = await puppeteer.connect({ transport, defaultViewport: null });
  try {
    const [{ default: lighthouse }, config] = await Promise.all([
      import("lighthouse"),
      PRESETS[job.preset](),
    ]);
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const { maxWaitForLoad, maxWaitForFcp, locale, ...settings } = job.settings;
    const result = await lighthouse(
      job.url,
      {
        ...settings,
        // Lighthouse falls back to English for a locale it does not ship.
        locale: locale as LighthouseLocale | undefined,
        output: job.output,
        logLevel: "silent",
        // No wait may outlast the request.
        maxWaitForLoad: Math.min(maxWaitForLoad ?? job.maxWaitForLoadMs, job.maxWaitForLoadMs),
        ...(maxWaitForFcp === undefined
          ? {}
          : { maxWaitForFcp: Math.min(maxWaitForFcp, job.maxWaitForLoadMs) }),
        disableFullPageScreenshot: true,
      },
      // deno-lint-ignore no-explicit-any
      config as any,
      page,
    );
    if (!result) throw new Error("Lighthouse returned no report");
    if (job.output !== "json") {
      const text = Array.isArray(result.report) ? result.report[0] : result.report;
      return { type: "done", report: String(text) };
    }
    const report: Record<string, unknown> = { ...result.lhr };
    for (const key of DROPPED) delete report[key];
    return { type: "done", report };
  } finally {
    // The server's thread kills the process once the answer is in; this is only courtesy.
    await browser.close().catch(() => {});
  }
}

self.onmessage = (event) => {
  const input = event.data;
  if (input.type === "cdp") return transport.receive(input.chunk);
  if (input.type === "closed") return transport.close();
  run(input.job).then(self.postMessage, (error) => {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    self.postMessage({
      type: "error",
      code: error instanceof ApiError ? error.code : "EFATAL",
      message,
    });
  });
};
