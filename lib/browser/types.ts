import type { AnimatedOptions, RecordedVideo } from "./record.ts";
import type { Config } from "../config/mod.ts";
import type { Fetcher } from "../fetch/types.ts";
import type { ProxySpec } from "../fetch/proxy_client.ts";
import type { EgressProxy } from "./proxy_server.ts";
import type { VisitTimings } from "./visit_timings.ts";

/**
 * `function`'s profiling in Microlink's shape: phases in milliseconds, the sandbox's CPU time
 * (ms) and memory (bytes), the source's bytes. `cpu` and `memory` are null when the sandbox
 * was killed (timeout, out of memory) before it could report them.
 */
export interface FunctionProfiling {
  phases: { install: number; build: number; spawn: number; run: number; total: number };
  cpu: number | null;
  memory: { total: number; used: number; heap: number; external: number } | null;
  size: number;
}

export interface FunctionResult {
  isFulfilled: boolean;
  isRejected: boolean;
  value: unknown;
  /** `function` only: its phases' times and memory, as Microlink reports them. */
  profiling?: FunctionProfiling;
  /** `function` only: its console output by level (bounded). */
  logging?: Record<string, string[]>;
}

/** A visit's way out through a request's `proxy=`: its own egress proxy, held until released. */
export interface Upstream {
  egress: EgressProxy;
  /** Called once the visit's context is gone. */
  release(): void;
}

export type ImageType = "png" | "jpeg";
export type WaitUntil = "load" | "domcontentloaded" | "networkidle0" | "networkidle2";

export interface OverlayOptions {
  /** Draw a browser window frame around the capture. */
  browser?: "light" | "dark";
  /** CSS colour, gradient, or an http(s) image URL painted behind the capture. */
  background?: string;
}

export interface ScreenshotOptions {
  type?: ImageType;
  /** jpeg only, 0-100. */
  quality?: number;
  fullPage?: boolean;
  omitBackground?: boolean;
  /** Capture this element's box, once it is visible. */
  element?: string;
  overlay?: OverlayOptions;
  /** Theme of a code target's highlighted view (CODE_THEMES). */
  codeScheme?: string;
  /** Also record a short video of the page from navigation on. */
  animated?: AnimatedOptions;
}

export interface PdfOptions {
  /** Paper format, e.g. "A4", "Letter". */
  format?: string;
  scale?: number;
  /** CSS length for every side, or per side. */
  margin?: string | { top?: string; right?: string; bottom?: string; left?: string };
  landscape?: boolean;
  /** e.g. "1-3, 5". */
  pageRanges?: string;
  /** Paper size as CSS lengths; either replaces `format`. */
  width?: string;
  height?: string;
}

export interface ViewportOptions {
  width?: number;
  height?: number;
  deviceScaleFactor?: number;
  isMobile?: boolean;
  hasTouch?: boolean;
  isLandscape?: boolean;
}

/** Everything one page load may do. Unset fields keep Chromium's defaults. */
export interface VisitOptions {
  screenshot?: ScreenshotOptions | boolean;
  pdf?: PdfOptions | boolean;
  /** Return the rendered DOM (prerender). */
  html?: boolean;
  viewport?: ViewportOptions;
  /** A preset name from DEVICES (case, spaces and dashes ignored); viewport fields override it. */
  device?: string;
  colorScheme?: "light" | "dark";
  waitUntil?: WaitUntil | WaitUntil[];
  waitForSelector?: string;
  waitForTimeout?: number;
  /** false disables JavaScript. */
  javascript?: boolean;
  /** false disables CSS animations and transitions. */
  animations?: boolean;
  click?: string | string[];
  scroll?: string;
  /** CSS text, or http(s) URLs of stylesheets. */
  styles?: string | string[];
  /** JS text, or http(s) URLs of scripts. */
  scripts?: string | string[];
  /** JS module text, or http(s) URLs of modules, added as <script type="module">. */
  modules?: string | string[];
  mediaType?: "screen" | "print";
  /**
   * What `prerender=auto` found: a challenge's own navigations are followed, a shell is given
   * time to show text (see waitForText).
   */
  awaiting?: "navigation" | "text";
  /** The request's `proxy=`: this visit's traffic leaves through it (after the guard). */
  proxy?: ProxySpec;
  /** Block ads and trackers, reject cookie-consent dialogs, hide ad slots (default true). */
  adblock?: boolean;
  /** The caller's headers.*: attached only to requests for the target's origin. */
  headers?: Record<string, string>;
  /** `evaluate` rules' sources, run in the page once it is ready (see runCallerCode). */
  evaluate?: string[];
  /** The `function` parameter: its source and the argument it is called with. */
  function?: { source: string; argument: Record<string, unknown> };
  userAgent?: string;
  /** Deadline for the whole visit, queue wait included; default config.requestTimeoutMs. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CapturedImage {
  bytes: Uint8Array;
  type: ImageType;
  /** Read from the image's own bytes. */
  width: number;
  height: number;
}

export interface CapturedPdf {
  bytes: Uint8Array;
  type: "pdf";
}

export interface VisitResult {
  /** Final URL of the main frame. */
  url: string;
  /** Status of the main document's response (0 when Chromium had none, e.g. about:blank). */
  statusCode: number;
  /** Lower-cased response headers of the main document, without set-cookie. */
  headers: Record<string, string>;
  html?: string;
  screenshot?: CapturedImage;
  /** screenshot.animated's recording. */
  animated?: RecordedVideo;
  pdf?: CapturedPdf;
  /** One answer per `evaluate` source, in order. */
  evaluated?: FunctionResult[];
  function?: FunctionResult;
}

export interface BrowserOptions {
  config: Config;
  /** Everything Chromium loads is dialled through fetcher.dial (guarded, pinned). */
  fetcher: Fetcher;
  /** Pages open at once; default config.browserPages (BROWSER_PAGES). */
  maxPages?: number;
  /** Visits waiting for a page; beyond it EBUSY. Default config.browserQueue (BROWSER_QUEUE). */
  maxQueue?: number;
  /** Called with each finished visit's phase times; benchmarks observe the pool through it. */
  onVisit?: (timings: VisitTimings) => void;
}

export interface BrowserStats {
  inUse: number;
  queued: number;
  /** Pages open at once at most (BROWSER_PAGES). */
  maxPages: number;
  /** Visits that may wait (BROWSER_QUEUE). */
  maxQueue: number;
  /** Pid of the running Chromium, null when none is running. */
  pid: number | null;
  /** How many times Chromium was launched (relaunches after a crash included). */
  launches: number;
  /** Incognito contexts open now (one per visit in progress; 0 when idle: nothing leaked). */
  contexts: number;
  /** Tabs open now in the visits' and the spare's contexts (popups included until closed). */
  pages: number;
}
