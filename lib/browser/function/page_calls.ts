/**
 * The page API a sandboxed `function` may use: each method is one message from the sandbox,
 * its arguments checked here and performed on the real puppeteer Page. Nothing else of the
 * Page (its browser, its CDP session, element handles) is reachable. Functions meant for the
 * page arrive as source text and run in the page, never here; what comes back is JSON made in
 * the page and bounded in length. Navigations happen in the visit's context, behind its
 * guarded egress proxy.
 */
import type { HTTPResponse, Page } from "puppeteer-core";
import { DENIED_HEADER } from "../proxy_server.ts";

/** Characters of JSON one page call may answer with (content(), a screenshot's base64). */
export const MAX_REPLY_CHARS = 8 * 1024 * 1024;
/** Characters a selector, a typed text, a navigation URL may have. */
const MAX_SELECTOR = 1000;
const MAX_TEXT = 10_000;
const MAX_URL = 8192;
/** Characters of code for the page, as for the function itself. */
const MAX_CODE = 256 * 1024;

/** A refusal the sandbox sees as a thrown error with this name and message. */
export class PageCallError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const invalid = (message: string) => new PageCallError("TypeError", message);

export interface CallContext {
  page: Page;
  /** Milliseconds left before the function's deadline. */
  remaining: () => number;
}

type Args = unknown[];
type Handler = (args: Args, ctx: CallContext) => Promise<unknown>;

function text(value: unknown, what: string, max: number): string {
  if (typeof value !== "string" || value.length === 0 || value.length > max) {
    throw invalid(`${what} must be a non-empty string of at most ${max} characters.`);
  }
  return value;
}

const selector = (value: unknown) => text(value, "The selector", MAX_SELECTOR);

/** An options object with only the named keys, each checked by its reader. */
function options<T>(
  value: unknown,
  readers: { [K in keyof T]: (v: unknown) => T[K] },
): Partial<T> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalid("Options must be an object.");
  }
  const out: Partial<T> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!Object.hasOwn(readers, key)) throw invalid(`The option \`${key}\` is not supported.`);
    if (raw !== undefined) out[key as keyof T] = readers[key as keyof T](raw);
  }
  return out;
}

const integer = (min: number, max: number) => (v: unknown): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(`A number option must be an integer from ${min} to ${max}.`);
  }
  return v;
};
const boolean = (v: unknown): boolean => {
  if (typeof v !== "boolean") throw invalid("A switch option must be true or false.");
  return v;
};
const oneOf = <T extends string>(...allowed: T[]) => (v: unknown): T => {
  if (!allowed.includes(v as T)) throw invalid(`An option must be one of ${allowed.join(", ")}.`);
  return v as T;
};
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

/**
 * Code sent for the page as an expression there: a function's source is called with
 * `first` (the element or elements, for $eval and $$eval) and the call's JSON `args`; a
 * string is an expression, as puppeteer's evaluate takes one.
 */
function callee(value: unknown, first = ""): string {
  const code = value as { fn?: unknown; expression?: unknown } | null;
  if (typeof code?.fn === "string") {
    return `(${text(code.fn, "The function", MAX_CODE)}\n)(${first}...args)`;
  }
  if (typeof code?.expression === "string") {
    return `(${text(code.expression, "The expression", MAX_CODE)}\n)`;
  }
  throw invalid("Pass a function or a string of JavaScript for the page.");
}

/**
 * Runs `callee` (an expression using `args`) in the page; only a bounded string of JSON made
 * there comes back.
 */
async function inPage(page: Page, callee: string, args: Args): Promise<unknown> {
  const text = await page.evaluate(`(async () => {
  const args = ${JSON.stringify(args)};
  const value = await (${callee});
  const json = JSON.stringify(value === undefined ? null : value);
  if (typeof json !== "string") return "null";
  return json.length > ${MAX_REPLY_CHARS} ? false : json;
})()`);
  if (text === false || (typeof text === "string" && text.length > MAX_REPLY_CHARS)) {
    throw new PageCallError("RangeError", `The page's answer is over ${MAX_REPLY_CHARS} chars.`);
  }
  if (typeof text !== "string") throw new PageCallError("TypeError", "The answer was not JSON.");
  return JSON.parse(text);
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
  click: async ([sel, opts], { page }) => {
    const o = options(opts, {
      button: oneOf("left", "right", "middle"),
      count: integer(1, 3),
      clickCount: integer(1, 3),
      delay: integer(0, 2000),
    });
    await page.click(selector(sel), o);
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
    // An element handle cannot cross into the sandbox: whether one was found does.
    await handle?.dispose();
    return handle !== null;
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
    const base64 = await page.screenshot({ ...o, encoding: "base64" });
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
};

/** The methods a function may call on `page`. */
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
