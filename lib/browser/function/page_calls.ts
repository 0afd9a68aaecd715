/**
 * The page API a sandboxed `function` may use: each method is one message from the sandbox,
 * its arguments checked here and performed on the real puppeteer Page. Nothing else of the
 * Page (its browser, its CDP session) is reachable; element handles stay here, the sandbox
 * holds numbers for them (ElementTable, ELEMENT_HANDLERS). Functions meant for the page arrive
 * as source text and run in the page, never here; what comes back is JSON made in the page and
 * bounded in length. Navigations (goto, reload, goBack, goForward, a click on a link) happen in
 * the visit's context, behind its guarded egress proxy.
 */
import type { ElementHandle, HTTPResponse, MouseButton, Page } from "puppeteer-core";
import { DENIED_HEADER } from "../proxy_server.ts";
import { boundedFullPage } from "../capture.ts";
import {
  boolean,
  type CallContext,
  callee,
  CLICK,
  type Handler,
  inPage,
  integer,
  invalid,
  MAX_REPLY_CHARS,
  MAX_TEXT,
  number,
  oneOf,
  options,
  PageCallError,
  selector,
  text,
} from "./call_args.ts";
import { ELEMENT_HANDLERS } from "./element_calls.ts";

export { ElementTable, MAX_REPLY_CHARS, PageCallError } from "./call_args.ts";
export type { CallContext } from "./call_args.ts";

const MAX_URL = 8192;
/** Waits and navigations get at most what is left of the deadline. */
const timeout = (v: unknown) => integer(0, 600_000)(v);
const within = (ctx: CallContext, asked?: number) =>
  Math.max(1, Math.min(asked || Infinity, ctx.remaining()));

const WAIT_UNTIL = oneOf("load", "domcontentloaded", "networkidle0", "networkidle2");
const navigation = { timeout, waitUntil: WAIT_UNTIL };

function httpUrl(value: unknown): string {
  const href = text(value, "The URL", MAX_URL);
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw invalid(`"${href.slice(0, 100)}" is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`Only http and https URLs can be opened, got "${url.protocol}".`);
  }
  return url.href;
}

/** puppeteer's HTTPResponse as plain JSON; the egress guard's refusal is an error. */
function plainResponse(response: HTTPResponse | null) {
  if (!response) return null;
  const headers = response.headers();
  const denied = headers[DENIED_HEADER];
  if (denied) {
    throw new PageCallError(
      "Error",
      `${denied}: linkpeek refused to load "${response.url()}" (its egress guard).`,
    );
  }
  return {
    url: response.url(),
    status: response.status(),
    statusText: response.statusText(),
    headers,
  };
}

const HANDLERS: Record<string, Handler> = {
  title: (_args, { page }) => page.title(),
  url: (_args, { page }) => Promise.resolve(page.url()),
  content: async (_args, { page }) => {
    const html = await page.content();
    if (html.length > MAX_REPLY_CHARS) {
      throw new PageCallError("RangeError", `The page is over ${MAX_REPLY_CHARS} characters.`);
    }
    return html;
  },
  goto: async ([url, opts], ctx) => {
    const target = httpUrl(url);
    const o = options(opts, navigation);
    return plainResponse(await ctx.page.goto(target, { ...o, timeout: within(ctx, o.timeout) }));
  },
  reload: async ([opts], ctx) => {
    const o = options(opts, navigation);
    return plainResponse(await ctx.page.reload({ ...o, timeout: within(ctx, o.timeout) }));
  },
  waitForNavigation: async ([opts], ctx) => {
    const o = options(opts, navigation);
    const response = await ctx.page.waitForNavigation({ ...o, timeout: within(ctx, o.timeout) });
    return plainResponse(response);
  },
  goBack: async ([opts], ctx) => {
    const o = options(opts, navigation);
    return plainResponse(await ctx.page.goBack({ ...o, timeout: within(ctx, o.timeout) }));
  },
  goForward: async ([opts], ctx) => {
    const o = options(opts, navigation);
    return plainResponse(await ctx.page.goForward({ ...o, timeout: within(ctx, o.timeout) }));
  },
  click: async ([sel, opts], { page }) => {
    await page.click(selector(sel), options(opts, CLICK));
    return null;
  },
  type: async ([sel, value, opts], { page }) => {
    const o = options(opts, { delay: integer(0, 200) });
    await page.type(selector(sel), text(value, "The text", MAX_TEXT), o);
    return null;
  },
  focus: async ([sel], { page }) => (await page.focus(selector(sel)), null),
  hover: async ([sel], { page }) => (await page.hover(selector(sel)), null),
  select: ([sel, ...values], { page }) =>
    page.select(selector(sel), ...values.map((v) => text(v, "A value", MAX_TEXT))),
  waitForSelector: async ([sel, opts], ctx) => {
    const o = options(opts, { visible: boolean, hidden: boolean, timeout });
    const handle = await ctx.page.waitForSelector(selector(sel), {
      ...o,
      timeout: within(ctx, o.timeout),
    });
    // As in Puppeteer: the element (null when waiting for it to be hidden).
    return handle ? (await ctx.elements.add([handle]))[0] : null;
  },
  waitForFunction: async ([code, opts, ...args], ctx) => {
    const o = options(opts, { timeout, polling: oneOf("raf", "mutation") });
    const source = callee(code);
    await ctx.page.waitForFunction(
      `(() => { const args = ${JSON.stringify(args)}; ` +
        `return ${source}; })()`,
      { ...o, timeout: within(ctx, o.timeout) },
    );
    return null;
  },
  waitForNetworkIdle: async ([opts], ctx) => {
    const o = options(opts, { idleTime: integer(0, 60_000), timeout });
    await ctx.page.waitForNetworkIdle({ ...o, timeout: within(ctx, o.timeout) });
    return null;
  },
  evaluate: ([code, ...args], { page }) => inPage(page, callee(code), args),
  $: async ([sel], { page, elements }) => {
    const handle = await page.$(selector(sel));
    return handle ? (await elements.add([handle]))[0] : null;
  },
  $$: async ([sel], { page, elements }) => {
    // At most one past what the table has room for is made into handles here: a page of a
    // million matches costs the page a list, never linkpeek a million handles.
    const list = await page.evaluateHandle(
      `[...document.querySelectorAll(${JSON.stringify(selector(sel))})]` +
        `.slice(0, ${elements.room() + 1})`,
    );
    try {
      const found = [...(await list.getProperties()).values()];
      // querySelectorAll gives Elements.
      const handles = found.flatMap((h) => (h.asElement() as ElementHandle | null) ?? []);
      await Promise.all(found.filter((h) => !h.asElement()).map((h) => h.dispose()));
      return await elements.add(handles);
    } finally {
      await list.dispose();
    }
  },
  setViewport: async ([viewport], { page }) => {
    // The bounds of the `viewport` parameter.
    const v = options(viewport, {
      width: integer(100, 3840),
      height: integer(100, 2160),
      deviceScaleFactor: number(0.5, 3),
      isMobile: boolean,
      hasTouch: boolean,
      isLandscape: boolean,
    });
    if (v.width === undefined || v.height === undefined) {
      throw invalid("setViewport needs a width and a height.");
    }
    await page.setViewport({ ...v, width: v.width, height: v.height });
    return null;
  },
  viewport: (_args, { page }) => Promise.resolve(page.viewport()),
  $eval: ([sel, code, ...args], { page }) =>
    inPage(
      page,
      `(() => { const element = document.querySelector(${JSON.stringify(selector(sel))});
  if (!element) throw new Error("Error: failed to find element matching selector " +
    ${JSON.stringify(JSON.stringify(sel))});
  return ${callee(code, "element, ")}; })()`,
      args,
    ),
  $$eval: ([sel, code, ...args], { page }) =>
    inPage(
      page,
      `(() => { const elements = [...document.querySelectorAll(${JSON.stringify(selector(sel))})];
  return ${callee(code, "elements, ")}; })()`,
      args,
    ),
  screenshot: async ([opts], { page }) => {
    const o = options(opts, {
      type: oneOf("png", "jpeg", "webp"),
      quality: integer(0, 100),
      fullPage: boolean,
      omitBackground: boolean,
      encoding: oneOf("base64", "binary"),
    });
    const { fullPage, ...rest } = o;
    const clip = fullPage ? await boundedFullPage(page) : null;
    const base64 = await page.screenshot({
      ...rest,
      ...(clip ? { clip } : { fullPage }),
      encoding: "base64",
    });
    if (base64.length > MAX_REPLY_CHARS) {
      throw new PageCallError("RangeError", `The screenshot is over ${MAX_REPLY_CHARS} chars.`);
    }
    return base64;
  },
  "keyboard.press": async ([key, opts], { page }) => {
    const o = options(opts, { delay: integer(0, 2000) });
    // puppeteer checks the key name against its own table.
    await page.keyboard.press(
      text(key, "The key", 40) as Parameters<Page["keyboard"]["press"]>[0],
      o,
    );
    return null;
  },
  "keyboard.type": async ([value, opts], { page }) => {
    const o = options(opts, { delay: integer(0, 200) });
    await page.keyboard.type(text(value, "The text", MAX_TEXT), o);
    return null;
  },
  "mouse.click": async ([x, y, opts], { page }) => {
    await page.mouse.click(coordinate(x), coordinate(y), options(opts, CLICK));
    return null;
  },
  "mouse.move": async ([x, y, opts], { page }) => {
    const o = options(opts, { steps: integer(1, 100) });
    await page.mouse.move(coordinate(x), coordinate(y), o);
    return null;
  },
  "mouse.down": async ([opts], { page }) => {
    await page.mouse.down(options(opts, PRESS) as { button?: MouseButton; clickCount?: number });
    return null;
  },
  "mouse.up": async ([opts], { page }) => {
    await page.mouse.up(options(opts, PRESS) as { button?: MouseButton; clickCount?: number });
    return null;
  },
  "mouse.wheel": async ([opts], { page }) => {
    const delta = number(-100_000, 100_000);
    await page.mouse.wheel(options(opts, { deltaX: delta, deltaY: delta }));
    return null;
  },
  ...ELEMENT_HANDLERS,
};

/** A point on the page, in CSS pixels. */
const coordinate = number(-100_000, 100_000);
const PRESS = { button: oneOf("left", "right", "middle"), clickCount: integer(1, 3) };

/** The methods a function may call on `page` (and its mouse, keyboard and elements). */
export const PAGE_METHODS = Object.keys(HANDLERS);

/** Performs one call from the sandbox; throws PageCallError (or puppeteer's) on failure. */
export function performPageCall(
  method: unknown,
  args: unknown,
  ctx: CallContext,
): Promise<unknown> {
  if (typeof method !== "string" || !Object.hasOwn(HANDLERS, method)) {
    return Promise.reject(invalid(`page.${String(method)}() is not available.`));
  }
  if (!Array.isArray(args)) return Promise.reject(invalid("Arguments must be a list."));
  try {
    return HANDLERS[method]!(args, ctx);
  } catch (error) {
    return Promise.reject(error);
  }
}
