/**
 * One Lighthouse run, in a Worker (createLighthouse starts it). Lighthouse's trace
 * processing blocks its thread for 0.3-0.5 s at a time, so it never runs on the server's.
 * Chromium is launched by linkpeek's own launcher (same binary, same flags), so every request
 * it makes goes through linkpeek's guarded egress proxy.
 */
import { launchChromium, removeDir } from "../browser/launch.ts";
import { ApiError } from "../util/errors.ts";
import type { LighthouseJob, LighthouseMessage } from "./lighthouse_types.ts";

declare const self: {
  onmessage: ((event: MessageEvent<LighthouseJob>) => void) | null;
  postMessage(message: LighthouseMessage): void;
};

/** Parts of the report that are the tool's own bookkeeping, not findings (about 40% of it). */
const DROPPED = ["i18n", "timing", "fullPageScreenshot"];

async function run(job: LighthouseJob): Promise<LighthouseMessage> {
  const { browser, userDataDir } = await launchChromium({
    executablePath: job.executablePath,
    proxyPort: job.proxyPort,
  });
  self.postMessage({ type: "launched", pid: browser.process()?.pid ?? null, userDataDir });
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
    await browser.close().catch(() => {});
    await removeDir(userDataDir);
  }
}

self.onmessage = (event) => {
  run(event.data).then(self.postMessage, (error) => {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    self.postMessage({
      type: "error",
      code: error instanceof ApiError ? error.code : "EFATAL",
      message,
    });
  });
};
