/** What the Lighthouse Worker is asked and what it answers (LighthouseRunner). */

export const LIGHTHOUSE_CATEGORIES = [
  "performance",
  "accessibility",
  "best-practices",
  "seo",
] as const;

export type LighthouseCategory = typeof LIGHTHOUSE_CATEGORIES[number];

/**
 * Microlink's presets: Lighthouse's own config files of those names. `mobile` is linkpeek's
 * older name for `default` (Lighthouse's mobile emulation), kept for its clients.
 */
export const LIGHTHOUSE_PRESETS = [
  "default",
  "desktop",
  "experimental",
  "full",
  "lr-desktop",
  "lr-mobile",
  "perf",
  "mobile",
] as const;
export type LighthousePreset = typeof LIGHTHOUSE_PRESETS[number];

/** How the report is serialised: the report object (json), or Lighthouse's html or csv text. */
export const LIGHTHOUSE_OUTPUTS = ["json", "html", "csv"] as const;
export type LighthouseOutput = typeof LIGHTHOUSE_OUTPUTS[number];

/**
 * Lighthouse's configuration settings a request may set (Microlink passes them through). Those
 * that read or write files (`auditMode`, `gatherMode`), send headers or pick a browser are not.
 */
export interface LighthouseSettings {
  onlyCategories?: LighthouseCategory[];
  onlyAudits?: string[];
  skipAudits?: string[];
  formFactor?: "mobile" | "desktop";
  throttlingMethod?: "simulate" | "devtools" | "provided";
  throttling?: Record<string, number>;
  screenEmulation?: Record<string, number | boolean>;
  emulatedUserAgent?: string;
  locale?: string;
  blockedUrlPatterns?: string[];
  maxWaitForFcp?: number;
  maxWaitForLoad?: number;
  pauseAfterFcpMs?: number;
  pauseAfterLoadMs?: number;
  networkQuietThresholdMs?: number;
  cpuQuietThresholdMs?: number;
}

/** `insights.lighthouse.*`: a preset, the output, and settings passed to Lighthouse. */
export interface LighthouseOptions extends LighthouseSettings {
  preset?: LighthousePreset;
  output?: LighthouseOutput;
}

export interface LighthouseJob {
  url: string;
  preset: LighthousePreset;
  output: LighthouseOutput;
  settings: LighthouseSettings;
  /** The request's deadline: no wait setting may pass it. */
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
  | { type: "done"; report: Record<string, unknown> | string }
  | { type: "error"; code: string; message: string };
