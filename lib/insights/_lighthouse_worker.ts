/**
 * One Lighthouse run, in a Worker (createLighthouse starts it). Lighthouse's trace
 * processing blocks its thread for 0.3-0.5 s at a time, so it never runs on the server's.
 * Its Chromium is the server thread's (lighthouse_chromium.ts: same binary, same flags, behind
 * linkpeek's guarded egress proxy); this Worker reaches it over CDP relayed through that thread,
 * so ending the Worker at any moment can never leave a Chromium behind.
 */
import puppeteer from "puppeteer-core";
import { ApiError } from "../util/errors.ts";
import type { LighthouseInput, LighthouseJob, LighthouseMessage } from "./lighthouse_types.ts";
import { RelayTransport } from "./relay_transport.ts";

declare const self: {
  onmessage: ((event: MessageEvent<LighthouseInput>) => void) | null;
  postMessage(message: LighthouseMessage): void;
};

/** Parts of the report that are the tool's own bookkeeping, not findings (about 40% of it). */
const DROPPED = ["i18n", "timing", "fullPageScreenshot"];

const transport = new RelayTransport((message) => self.postMessage({ type: "cdp", message }));

async function run(job: LighthouseJob): Promise<LighthouseMessage> {
  const browser = await puppeteer.connect({ transport, defaultViewport: null });
  try {
    const [{ default: lighthouse }, config] = await Promise.all([
      import("lighthouse"),
      job.preset === "desktop"
        ? import("lighthouse/core/config/desktop-config.js").then((m) => m.default)
        : Promise.resolve(undefined),
    ]);
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const result = await lighthouse(
      job.url,
      {
        output: "json",
        logLevel: "silent",
        onlyCategories: job.onlyCategories,
        maxWaitForLoad: job.maxWaitForLoadMs,
        disableFullPageScreenshot: true,
      },
      config,
      page,
    );
    if (!result) throw new Error("Lighthouse returned no report");
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
