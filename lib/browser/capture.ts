/** Screenshot (page, full page or element, optionally framed) and PDF of a loaded page. */
import type { Page, PaperFormat, ScreenshotClip } from "puppeteer-core";
import type { TabOpener } from "./popup_guard.ts";
import { ApiError } from "../util/errors.ts";
import type { CapturedImage, CapturedPdf, PdfOptions, ScreenshotOptions } from "./types.ts";
import type { Deadline } from "../util/deadline.ts";
import { imageSize } from "../media/image_size.ts";
import { typeFromBytes } from "../media/sniff.ts";
import { overlayPage, wantsOverlay } from "./overlay.ts";
import { boundedPageRanges } from "./pdf_pages.ts";

export async function captureScreenshot(
  page: Page,
  job: { options: ScreenshotOptions; context: TabOpener; deadline: Deadline },
): Promise<CapturedImage> {
  const { options, deadline } = job;
  const type = options.type ?? "png";
  const quality = type === "jpeg" ? options.quality ?? 80 : undefined;
  const omitBackground = options.omitBackground ?? false;
  // Chromium's fast PNG/JPEG settings: a few percent larger files for a fraction of its CPU.
  const optimizeForSpeed = true;
  let bytes: Uint8Array;
  if (options.element) {
    await checkSelector(page, { parameter: "element", selector: options.element, deadline });
    const handle = await deadline.run(
      page.waitForSelector(options.element, { visible: true, timeout: deadline.remaining(250) }),
    ).catch((error) => {
      throw selectorError("element", options.element!, error);
    });
    if (!handle) {
      throw new ApiError("EINVALQUERY", `The element "${options.element}" was not found.`);
    }
    const box = await deadline.run(handle.boundingBox());
    // Relative to the element: its top left, when it is too large to capture whole.
    const clip = box ? bounded(page, box) : null;
    bytes = await deadline.run(
      handle.screenshot({ type, quality, omitBackground, optimizeForSpeed, ...(clip && { clip }) }),
    );
  } else {
    const fullPage = options.fullPage ?? false;
    const clip = fullPage ? await deadline.run(boundedFullPage(page)) : null;
    bytes = await deadline.run(
      page.screenshot({
        type,
        quality,
        omitBackground,
        optimizeForSpeed,
        ...(clip ? { clip } : { fullPage }),
      }),
    );
  }
  if (wantsOverlay(options.overlay)) {
    const viewport = page.viewport();
    const scale = viewport?.deviceScaleFactor ?? 1;
    bytes = await drawOverlay(bytes, { ...job, type, quality, scale });
  }
  return withSize(bytes, type);
}

/** Device pixels either side of a capture may take (JPEG's own limit is 65535). */
export const MAX_CAPTURE_SIDE = 32768;
/** Device pixels a capture may take: the default 2560-wide capture, 32768 tall. */
export const MAX_CAPTURE_PIXELS = 2560 * MAX_CAPTURE_SIDE;

/** What of a full page is captured: null for all of it, else its top left (`bounded`). */
export async function boundedFullPage(page: Page): Promise<ScreenshotClip | null> {
  const size = await page.evaluate(() => {
    const root = document.documentElement;
    return { width: root.scrollWidth, height: root.scrollHeight };
  });
  return bounded(page, size);
}

/**
 * The part of a page or element too large to capture whole that is captured (its top left),
 * null when the whole fits. Unbounded, a page 100,000 px tall made a 2560x200000 image (8 s,
 * 11 MB, and gigabytes in the renderer) and one as wide failed outright as the browser's fault.
 */
function bounded(page: Page, size: { width: unknown; height: unknown }): ScreenshotClip | null {
  const viewport = page.viewport();
  const scale = viewport?.deviceScaleFactor ?? 1;
  // The page's scripts may answer anything: a side that is not a size counts as too large.
  const side = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value > 0 ? value : Infinity;
  // Width beyond the viewport's is cut first: the pixels go to the page's length.
  const widest = Math.max(viewport?.width ?? 0, MAX_CAPTURE_PIXELS / MAX_CAPTURE_SIDE / scale);
  const width = Math.min(side(size.width), widest, MAX_CAPTURE_SIDE / scale);
  const height = Math.min(
    side(size.height),
    MAX_CAPTURE_SIDE / scale,
    MAX_CAPTURE_PIXELS / (scale * scale * width),
  );
  if (width === side(size.width) && height === side(size.height)) return null;
  return { x: 0, y: 0, width: Math.floor(width), height: Math.floor(height) };
}

/** Composes the overlay page in a fresh tab of the same context and captures it. */
async function drawOverlay(
  capture: Uint8Array,
  job: {
    options: ScreenshotOptions;
    context: TabOpener;
    deadline: Deadline;
    type: "png" | "jpeg";
    quality: number | undefined;
    scale: number;
  },
): Promise<Uint8Array> {
  const size = withSize(capture, job.type);
  const composed = overlayPage({
    bytes: capture,
    type: job.type,
    cssWidth: Math.round(size.width / job.scale),
    cssHeight: Math.round(size.height / job.scale),
  }, job.options.overlay!);
  const tab = await job.deadline.run(job.context.newPage());
  try {
    await job.deadline.run(tab.setViewport({
      width: composed.width,
      height: composed.height,
      deviceScaleFactor: job.scale,
    }));
    await job.deadline.run(
      tab.setContent(composed.html, { waitUntil: "load", timeout: job.deadline.remaining() }),
    );
    return await job.deadline.run(tab.screenshot({
      type: job.type,
      quality: job.quality,
      omitBackground: !job.options.overlay?.background && (job.options.omitBackground ?? false),
    }));
  } finally {
    await tab.close().catch(() => {});
  }
}

/** Microlink's documented defaults for `pdf` (format, scale, margin). */
export const PDF_DEFAULTS = { format: "A4", scale: 0.6, margin: "0.35cm" } as const;

export async function capturePdf(
  page: Page,
  job: { options: PdfOptions; deadline: Deadline },
): Promise<CapturedPdf> {
  const { options, deadline } = job;
  const pageRanges = boundedPageRanges(options.pageRanges);
  const side = options.margin ?? PDF_DEFAULTS.margin;
  const margin = typeof side === "string"
    ? { top: side, right: side, bottom: side, left: side }
    : side;
  // Chromium takes format over width and height: a custom size leaves it out.
  const size = options.width || options.height
    ? { width: options.width, height: options.height }
    : { format: (options.format ?? PDF_DEFAULTS.format) as PaperFormat };
  const bytes = await deadline.run(page.pdf({
    ...size,
    scale: options.scale ?? PDF_DEFAULTS.scale,
    margin,
    landscape: options.landscape ?? false,
    pageRanges,
    printBackground: true,
    timeout: deadline.remaining(),
  })).catch((error) => {
    if (error instanceof ApiError) throw error;
    const why = firstLine(error);
    // Chromium refuses a range past the last page or backwards ("Page range exceeds page count").
    if (options.pageRanges && /page range/i.test(why)) {
      throw new ApiError(
        "EPAGERANGE",
        `The parameter \`pdf.pageRanges\` "${options.pageRanges}" is outside the document (${why}).`,
      );
    }
    throw new ApiError("EINVALQUERY", `The \`pdf\` options could not be applied (${why}).`);
  });
  return { bytes, type: "pdf" };
}

function withSize(bytes: Uint8Array, type: "png" | "jpeg"): CapturedImage {
  // Dimensions come from the image's own header, never from what was asked for.
  const size = typeFromBytes(bytes) === (type === "jpeg" ? "jpg" : "png") ? imageSize(bytes) : null;
  if (!size) {
    throw new ApiError("EBROWSER", `The browser returned an unreadable ${type} capture.`);
  }
  return { bytes, type, width: size.width, height: size.height };
}

/**
 * Fails at once on a selector that does not parse: waitForSelector would keep polling it
 * until the deadline.
 */
export async function checkSelector(
  page: Page,
  check: { parameter: string; selector: string; deadline: Deadline },
): Promise<void> {
  const handle = await check.deadline.run(page.$(check.selector)).catch((error) => {
    throw selectorError(check.parameter, check.selector, error);
  });
  await handle?.dispose().catch(() => {});
}

/** A bad selector is the caller's fault (EINVALQUERY); waiting too long is EBRWSRTIMEOUT. */
export function selectorError(parameter: string, selector: string, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const text = firstLine(error);
  if (/not a valid selector|SyntaxError|Invalid selector/i.test(text)) {
    return new ApiError(
      "EINVALQUERY",
      `The \`${parameter}\` parameter "${selector}" is not a valid selector.`,
    );
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return new ApiError(
      "EBRWSRTIMEOUT",
      `The \`${parameter}\` selector "${selector}" did not appear in time.`,
    );
  }
  return new ApiError("EBROWSER", `The browser failed on \`${parameter}\` "${selector}": ${text}`);
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 200);
}
