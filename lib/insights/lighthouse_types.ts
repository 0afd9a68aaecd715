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
  executablePath: string;
  proxyPort: number;
  preset: "mobile" | "desktop";
  onlyCategories?: LighthouseCategory[];
  maxWaitForLoadMs: number;
}

export type LighthouseMessage =
  | { type: "launched"; pid: number | null; userDataDir: string }
  | { type: "done"; report: Record<string, unknown> }
  | { type: "error"; code: string; message: string };
