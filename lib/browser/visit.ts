/** One visit: a fresh incognito context and page, navigation, actions, captures, cleanup. */
import {
  type BrowserContext,
  ConnectionClosedError,
  type HTTPResponse,
  type Page,
} from "puppeteer-core";
import { type Lease, responsive } from "./spare.ts";
import { ApiError } from "../util/errors.ts";
import type { VisitOptions, VisitResult, WaitUntil } from "./types.ts";
import { type Deadline, settlesWithin } from "../util/deadline.ts";
import type { EgressProxy } from "./proxy_server.ts";
import type { PhaseClock } from "./visit_timings.ts";
import { stripControls } from "../fetch/decode.ts";
import { isHopByHop, portOf } from "../util/http.ts";
import { DENIED_HEADER } from "./proxy_server.ts";
import { type PageState, setupPage } from "./page_setup.ts";
import { type Adblock, startAdblock, withoutConsent } from "./adblock/mod.ts";
import { trackMainDocuments, waitForText } from "./prerender_wait.ts";
import { openCodeView } from "./code_view.ts";
import { guardPopups } from "./popup_guard.ts";
import { lastHttpUrl } from "./http_url.ts";
import { runCallerCode } from "./evaluate.ts";
import { functionHeaders } from "./function/headers.ts";
import { startRecording } from "./record.ts";
import {
  capturePdf,
  captureScreenshot,
  checkSelector,
  firstLine,
  selectorError,
} from "./capture.ts";

const NO_ANIMATIONS = "*,*::before,*::after{animation:none!important;" +
  "transition:none!important;caret-color:transparent!important}";
const noop = () => {};

export interface VisitJob {
  /** A never-used incognito context with a blank page. */
  open: () => Promise<Lease>;
  proxy: EgressProxy;
  url: string;
  options: VisitOptions;
  deadline: Deadline;
  defaultUserAgent: string;
  clock: PhaseClock;
}

export type VisitOutcome =
  & ({ ok: true; result: VisitResult } | { ok: false; error: ApiError })
  & {
    /**
     * The context's disposal, still under way when the outcome is handed back (the caller
     * need not wait ~20 ms for it). Resolves false when closing itself failed (a hung
     * renderer), so the pool replaces the browser.
     */
    closed: Promise<boolean>;
  };

/** Runs the visit; never rejects, and the context is always closed (see `closed`). */
export async function runVisit(job: VisitJob): Promise<VisitOutcome> {
  const { deadline } = job;
  const leasing = job.open();
  let lease: Lease;
  try {
    lease = await deadline.run(leasing);
    job.clock.lap("context");
  } catch (error) {
    // Past the deadline the lease may still arrive: its closing is part of this visit's, so
    // the pool holds the page slot (and settled() waits) until it is gone.
    const closed = leasing.then((late) => closeContext(late.context), () => true);
    return { ok: false, error: toApiError(error, job), closed };
  }
  let result: VisitResult | undefined;
  let failure: unknown;
  let crashed = false;
  lease.page.once("error", () => crashed = true);
  try {
    result = await visitIn(lease, job);
  } catch (error) {
    // Whatever a step made of it, a failure while the browser or the tab died is the
    // browser's: never the target's (EFETCH, cached) nor the caller's (EINVALQUERY).
    const blamesOthers = error instanceof ApiError &&
      (error.code === "EFETCH" || error.code === "EINVALQUERY");
    const named = error instanceof ApiError && error.code === "EBROWSER";
    const died = !named && (crashed || browserFailed(lease.page, error) ||
      (blamesOthers && !(await responsive(lease.page))));
    failure = died
      ? new ApiError("EBROWSER", `The browser failed while visiting "${job.url}".`)
      : error;
  }
  const closed = closeContext(lease.context);
  if (failure !== undefined) return { ok: false, error: toApiError(failure, job), closed };
  return { ok: true, result: result!, closed };
}

/**
 * Disposing a context kills its renderers, even one stuck in `while(true){}`; false when that
 * did not happen within 5 s (a hung browser).
 */
function closeContext(context: BrowserContext): Promise<boolean> {
  return settlesWithin(context.close(), 5000);
}

async function visitIn(lease: Lease, job: VisitJob): Promise<VisitResult> {
  const { context, page } = lease;
  const { deadline, options, clock } = job;
  // Popups (window.open spam, noopener or not) are closed as they appear; their loads still
  // meet the proxy. The visit's own extra tabs are opened through `tabs`.
  const tabs = guardPopups(context, page);
  page.on("dialog", (dialog) => void dialog.dismiss().catch(noop));
  page.on("error", () => {
    deadline.fail(new ApiError("EBROWSER", `The page "${job.url}" crashed the browser tab.`));
  });
  page.setDefaultTimeout(deadline.remaining());
  const state: PageState = { navigated: false };
  // adblock's script and binding go in beside the emulation settings: one wait, not two.
  const blocker: { adblock: Adblock | null } = { adblock: null };
  await deadline.run(Promise.all([
    options.adblock === false
      ? withoutConsent(page, lease.consent)
      : startAdblock(page, { javascript: options.javascript !== false, consent: lease.consent })
        .then((started) => blocker.adblock = started),
    setupPage(page, {
      url: job.url,
      options,
      defaultUserAgent: job.defaultUserAgent,
      state,
      adblock: () => blocker.adblock,
    }),
  ]));
  clock.lap("setup");

  const documents = options.awaiting === "navigation"
    ? trackMainDocuments(page, deadline, job.url)
    : null;
  const pageUrl = lastHttpUrl(page, job.url);
  // Microlink's recording starts at navigation: the page's load is part of the video.
  const animated = typeof options.screenshot === "object" ? options.screenshot.animated : undefined;
  const recording = animated
    ? await startRecording(page, { options: animated, context: tabs, deadline })
    : null;
  const started = Date.now();
  let response = await deadline.run(page.goto(job.url, {
    waitUntil: waitUntilOf(options),
    timeout: deadline.remaining(),
  })).catch((error) => {
    throw navigationError(error, { job, started });
  });
  if (documents) response = (await documents.follow(deadline)) ?? response;
  clock.lap("navigate");
  if (options.awaiting === "text") await waitForText(page, deadline);
  state.navigated = true;
  checkDenied(response, job);

  await act(page, job);
  const { adblock } = blocker;
  if (adblock && (options.screenshot || options.pdf)) {
    await deadline.run(adblock.tidy(deadline.remaining(2000)));
  }
  clock.lap("wait");
  const result: VisitResult = {
    url: pageUrl(),
    statusCode: response?.status() ?? 0,
    headers: responseHeaders(response),
  };
  if (recording) {
    result.animated = await recording.finish();
    clock.lap("record");
  }
  // A script can write any character into the DOM: the same text rules as a fetched page.
  if (options.html) result.html = stripControls(await deadline.run(page.content()));
  if (options.screenshot) {
    const screenshot = options.screenshot === true ? {} : options.screenshot;
    const theme = screenshot.codeScheme;
    const code = await openCodeView(page, { response, context: tabs, theme, deadline });
    try {
      result.screenshot = code
        ? await captureScreenshot(code, {
          options: { ...screenshot, element: undefined },
          context: tabs,
          deadline,
        })
        : await captureScreenshot(page, { options: screenshot, context: tabs, deadline });
    } finally {
      await code?.close().catch(noop);
    }
    clock.lap("capture");
  }
  if (options.pdf) {
    const pdf = options.pdf === true ? {} : options.pdf;
    result.pdf = await capturePdf(page, { options: pdf, deadline });
    clock.lap("pdf");
  }
  // Caller code runs last: a loop that never ends leaves the renderer unable to do more.
  if (options.evaluate?.length || options.function) {
    const ran = await runCallerCode(page, {
      evaluate: options.evaluate,
      function: options.function,
      // Its navigations (goto, a click on a link) still go through the egress proxy.
      allowNavigation: () => state.navigated = false,
      response: { url: result.url, status: result.statusCode, headers: result.headers },
      requestHeaders: functionHeaders(response?.request().headers() ?? {}, options.headers),
      remaining: (margin) => deadline.remaining(margin),
    });
    Object.assign(result, ran);
  }
  return result;
}

/** The caller's actions after load, in the order a user would do them. */
async function act(page: Page, job: VisitJob): Promise<void> {
  const { deadline, options } = job;
  const wait = async (parameter: string, selector: string, visible: boolean) => {
    await checkSelector(page, { parameter, selector, deadline });
    return await deadline.run(
      page.waitForSelector(selector, { visible, timeout: deadline.remaining(250) }),
    ).catch((error) => {
      throw selectorError(parameter, selector, error);
    });
  };
  if (options.waitForSelector) await wait("waitForSelector", options.waitForSelector, false);
  for (const style of list(options.styles)) {
    const tag = isUrl(style) ? { url: style } : { content: style };
    await deadline.run(page.addStyleTag(tag)).catch(injectError("styles", style));
  }
  if (options.animations === false) {
    await deadline.run(page.addStyleTag({ content: NO_ANIMATIONS })).catch(injectError(
      "animations",
      "false",
    ));
  }
  for (const script of list(options.scripts)) {
    const tag = isUrl(script) ? { url: script } : { content: script };
    await deadline.run(page.addScriptTag(tag)).catch(injectError("scripts", script));
  }
  for (const module of list(options.modules)) {
    const tag = isUrl(module) ? { url: module } : { content: module };
    await deadline.run(page.addScriptTag({ ...tag, type: "module" }))
      .catch(injectError("modules", module));
  }
  for (const selector of list(options.click)) {
    const handle = await wait("click", selector, true);
    await deadline.run(handle!.click()).catch((error) => {
      throw selectorError("click", selector, error);
    });
  }
  if (options.scroll) {
    const handle = await wait("scroll", options.scroll, false);
    await deadline.run(handle!.scrollIntoView()).catch(noop);
  }
  if (options.waitForTimeout) {
    const ms = Math.min(options.waitForTimeout, deadline.remaining());
    await deadline.run(new Promise((r) => setTimeout(r, ms)));
  }
}

function waitUntilOf(options: VisitOptions): WaitUntil[] {
  const value = options.waitUntil ?? "load";
  return Array.isArray(value) ? value : [value];
}

/** The proxy's own refusal of the main document becomes the request's error. */
function checkDenied(response: HTTPResponse | null, job: VisitJob): void {
  const code = response?.headers()[DENIED_HEADER];
  if (!response || !code) return;
  const target = new URL(response.url());
  const denial = job.proxy.denial(target.hostname, portOf(target));
  throw new ApiError(
    denial?.code ?? (code === "EFORBIDDENURL" ? "EFORBIDDENURL" : "EFETCH"),
    denial?.message ?? `The URL "${response.url()}" could not be loaded by the browser.`,
  );
}

function navigationError(error: unknown, ctx: { job: VisitJob; started: number }): unknown {
  if (error instanceof ApiError) return error;
  const target = new URL(ctx.job.url);
  const denial = ctx.job.proxy.denial(target.hostname, portOf(target));
  if (denial && denial.at >= ctx.started) return new ApiError(denial.code, denial.message);
  if (error instanceof Error && error.name === "TimeoutError") {
    return new ApiError(
      "EBRWSRTIMEOUT",
      `The browser could not load "${ctx.job.url}" in time.`,
      { cause: error },
    );
  }
  return new ApiError(
    "EFETCH",
    `The browser could not load "${ctx.job.url}" (${firstLine(error)}).`,
    { cause: error },
  );
}

/**
 * Whether the browser process, its connection or the tab went away: the main frame detaches
 * when its tab dies (puppeteer says so in a plain Error), sessions close with the browser.
 */
function browserFailed(page: Page, error: unknown): boolean {
  if (error instanceof ConnectionClosedError) return true;
  // puppeteer does not export TargetCloseError (a session whose target went away).
  if (error instanceof Error && error.name === "TargetCloseError") return true;
  if (page.isClosed() || !page.browser().connected) return true;
  const cause = error instanceof ApiError ? error.cause : error;
  return /Navigating frame was detached|Target closed|Session closed|Connection closed/i.test(
    firstLine(cause ?? error),
  );
}

/** Errors that are not ApiErrors mean the browser itself failed (e.g. it was killed). */
function toApiError(error: unknown, job: VisitJob): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Error && error.name === "TimeoutError") {
    return new ApiError("EBRWSRTIMEOUT", `The browser could not finish "${job.url}" in time.`, {
      cause: error,
    });
  }
  return new ApiError("EBROWSER", `The browser failed on "${job.url}": ${firstLine(error)}`, {
    cause: error,
  });
}

function injectError(parameter: string, value: string) {
  return (error: unknown): never => {
    if (error instanceof ApiError) throw error;
    throw new ApiError(
      "EINVALQUERY",
      `The \`${parameter}\` value "${value.slice(0, 80)}" could not be injected ` +
        `(${firstLine(error)}).`,
      { cause: error },
    );
  };
}

function responseHeaders(response: HTTPResponse | null): Record<string, string> {
  // Connection headers are the proxy's, not the target's.
  return Object.fromEntries(
    Object.entries(response?.headers() ?? {}).filter(([name]) =>
      name !== "set-cookie" && !isHopByHop(name)
    ),
  );
}

function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function isUrl(value: string): boolean {
  return /^https?:\/\/\S+$/i.test(value.trim());
}
