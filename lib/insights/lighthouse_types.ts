/** What the Lighthouse Worker is asked and what it answers (createLighthouse). */

export const LIGHTHOUSE_CATEGORIES = [
  "performance",
  "accessibility",
  "best-practices",
  "seo",
] as const;

export type LighthouseCategory = typeof LIGHTHOUSE_CATEGORIES[number];

/** `insights.lighthouse.*`: Lighthouse's own option names. */
export interface LighthouseOptions {
  /** mobile (Lighthouse's default emulation) or desktop. */
  preset?: "mobile" | "desktop";
  /** Only these categories (all when absent). */
  onlyCategories?: LighthouseCategory[];
}

export interface LighthouseJob {
  url: string;
  preset: "mobile" | "desktop";
  onlyCategories?: LighthouseCategory[];
  maxWaitForLoadMs: number;
}

/** To the Worker: its job, then Chromium's CDP bytes, then the end of the pipe. */
export type LighthouseInput =
  | { type: "job"; job: LighthouseJob }
  | { type: "cdp"; chunk: Uint8Array }
  | { type: "closed" };

/** From the Worker: CDP messages for Chromium, then its answer. */
export type LighthouseMessage =
  | { type: "cdp"; message: string }
  | { type: "done"; report: Record<string, unknown> }
  | { type: "error"; code: string; message: string };
