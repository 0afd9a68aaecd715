/**
 * What every page call from the `function` sandbox shares: its arguments' checks (strings,
 * option objects with only known keys, numbers in range), the error the sandbox sees, and the
 * one way caller code runs in the page (inPage: only bounded JSON made there comes back).
 */
import type { ElementHandle, Page } from "puppeteer-core";

/** Characters of JSON one page call may answer with (content(), a screenshot's base64). */
export const MAX_REPLY_CHARS = 8 * 1024 * 1024;
/** Characters a selector, a typed text, a navigation URL may have. */
const MAX_SELECTOR = 1000;
export const MAX_TEXT = 10_000;
/** Characters of code for the page, as for the function itself. */
const MAX_CODE = 256 * 1024;

/** A refusal the sandbox sees as a thrown error with this name and message. */
export class PageCallError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export const invalid = (message: string) => new PageCallError("TypeError", message);

export interface CallContext {
  page: Page;
  /** The function's element handles (page.$, page.$$), disposed of when it ends. */
  elements: ElementTable;
  /** Milliseconds left before the function's deadline. */
  remaining: () => number;
}

export type Args = unknown[];
export type Handler = (args: Args, ctx: CallContext) => Promise<unknown>;

/** Element handles a function may hold at once. */
export const MAX_ELEMENTS = 1000;

/**
 * The real ElementHandles behind the numbers the sandbox holds. Bounded; once the function
 * has ended, a handle still arriving (a late page.$) is disposed of at once.
 */
export class ElementTable {
  #handles = new Map<number, ElementHandle>();
  #next = 0;
  #closed = false;

  /** Numbers for `handles`, or a RangeError (and every one disposed) past the bound. */
  async add(handles: ElementHandle[]): Promise<number[]> {
    if (this.#closed || this.#handles.size + handles.length > MAX_ELEMENTS) {
      await Promise.all(handles.map((h) => h.dispose().catch(() => {})));
      if (this.#closed) throw new PageCallError("Error", "The function has ended.");
      throw new PageCallError(
        "RangeError",
        `A function may hold at most ${MAX_ELEMENTS} element handles at once (dispose() some).`,
      );
    }
    return handles.map((handle) => {
      const id = ++this.#next;
      this.#handles.set(id, handle);
      return id;
    });
  }

  /** How many more handles the function may hold. */
  room(): number {
    return MAX_ELEMENTS - this.#handles.size;
  }

  get(id: unknown): ElementHandle {
    const handle = typeof id === "number" ? this.#handles.get(id) : undefined;
    if (!handle) throw invalid("This element handle was disposed of, or never existed.");
    return handle;
  }

  async dispose(id: unknown): Promise<void> {
    const handle = this.get(id);
    this.#handles.delete(id as number);
    await handle.dispose();
  }

  async disposeAll(): Promise<void> {
    this.#closed = true;
    const all = [...this.#handles.values()];
    this.#handles.clear();
    await Promise.all(all.map((h) => h.dispose().catch(() => {})));
  }
}

export function text(value: unknown, what: string, max: number): string {
  if (typeof value !== "string" || value.length === 0 || value.length > max) {
    throw invalid(`${what} must be a non-empty string of at most ${max} characters.`);
  }
  return value;
}

export const selector = (value: unknown) => text(value, "The selector", MAX_SELECTOR);

/** An options object with only the named keys, each checked by its reader. */
export function options<T>(
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

export const integer = (min: number, max: number) => (v: unknown): number => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(`A number option must be an integer from ${min} to ${max}.`);
  }
  return v;
};
/** A finite number in a range (coordinates, wheel deltas). */
export const number = (min: number, max: number) => (v: unknown): number => {
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) {
    throw invalid(`A number must be from ${min} to ${max}.`);
  }
  return v;
};
export const boolean = (v: unknown): boolean => {
  if (typeof v !== "boolean") throw invalid("A switch option must be true or false.");
  return v;
};
export const oneOf = <T extends string>(...allowed: T[]) => (v: unknown): T => {
  if (!allowed.includes(v as T)) throw invalid(`An option must be one of ${allowed.join(", ")}.`);
  return v as T;
};

/** The options of a click, on the page, an element or the mouse. */
export const CLICK = {
  button: oneOf("left", "right", "middle"),
  count: integer(1, 3),
  clickCount: integer(1, 3),
  delay: integer(0, 2000),
};

/**
 * Code sent for the page as an expression there: a function's source is called with
 * `first` (the element or elements, for $eval and $$eval) and the call's JSON `args`; a
 * string is an expression, as puppeteer's evaluate takes one.
 */
export function callee(value: unknown, first = ""): string {
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
export async function inPage(page: Page, callee: string, args: Args): Promise<unknown> {
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
