/**
 * Caller JavaScript run inside the visited page (the `function` parameter and `evaluate` custom
 * rules): in the browser's renderer, never in linkpeek's process. The answer is Microlink's
 * `{ isFulfilled, isRejected, value }`, where value is JSON (anything else is a rejection).
 *
 * Two steps keep the caller's code from shaping what comes back: the first runs it and leaves
 * its promise under a name the page cannot guess; the second, linkpeek's own, reads that promise
 * and accepts only a string of bounded length (the JSON text made inside the page). Each step is
 * bounded in time; code that never yields (`while(true){}`) leaves the renderer busy, so these
 * run last in a visit and the context's disposal ends the renderer.
 */
import type { Page } from "puppeteer-core";
import { toBase64Url } from "../util/base64url.ts";
import { firstLine } from "./capture.ts";
import type { FunctionResult } from "./types.ts";

/** Characters of JSON one value may take. */
export const MAX_VALUE_CHARS = 1024 * 1024;

/**
 * What the caller's function receives besides its argument: the few Page methods that make
 * sense inside the page, so Microlink's `({ page }) => page.title()` style works unchanged.
 */
const PAGE_HELPER = `{
  evaluate: async (fn, ...args) => typeof fn === "function" ? fn(...args) : (0, eval)(String(fn)),
  title: async () => document.title,
  url: async () => location.href,
  content: async () => document.documentElement.outerHTML,
  $eval: async (selector, fn, ...args) => {
    const el = document.querySelector(selector);
    if (!el) throw new Error("No element matches selector " + selector);
    return fn(el, ...args);
  },
  $$eval: async (selector, fn, ...args) => fn([...document.querySelectorAll(selector)], ...args),
}`;

/** The first step: the caller's source, run, its JSON answer left under `key`. */
function runExpression(source: string, argument: unknown, key: string): string {
  return `globalThis[${JSON.stringify(key)}] = (async () => {
  const reject = (e) => ({ isFulfilled: false, isRejected: true,
    value: { name: String((e && e.name) || "Error"), message: String((e && e.message) || e) } });
  let value;
  try {
    const run = (
${source}
    );
    const argument = Object.assign(${JSON.stringify(argument)}, {
      page: ${PAGE_HELPER},
      get html() { return document.documentElement.outerHTML; },
    });
    value = await (typeof run === "function" ? run(argument) : run);
  } catch (e) {
    return JSON.stringify(reject(e));
  }
  let json;
  try {
    json = JSON.stringify(value === undefined ? null : value);
  } catch (e) {
    return JSON.stringify(reject({ name: "TypeError",
      message: "The value is not JSON (" + ((e && e.message) || e) + ")" }));
  }
  if (json.length > ${MAX_VALUE_CHARS}) {
    return JSON.stringify(reject({ name: "RangeError",
      message: "The value is larger than ${MAX_VALUE_CHARS} characters of JSON" }));
  }
  return '{"isFulfilled":true,"isRejected":false,"value":' + json + "}";
})();
void 0;`;
}

/** The second step, linkpeek's own: only a bounded string leaves the page. */
function readExpression(key: string): string {
  return `(async () => {
  const text = await globalThis[${JSON.stringify(key)}];
  return typeof text === "string" && text.length <= ${MAX_VALUE_CHARS + 100} ? text : null;
})()`;
}

function rejected(name: string, message: string): FunctionResult {
  return { isFulfilled: false, isRejected: true, value: { name, message } };
}

/** Runs `source` (a function, called with `argument`, or an expression) in the page. */
export async function evaluateInPage(
  page: Page,
  options: { source: string; argument?: Record<string, unknown>; timeoutMs: number },
): Promise<FunctionResult> {
  const key = `__linkpeek_${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
  });
  let onCrash = () => {};
  const crashed = new Promise<"crashed">((resolve) => {
    onCrash = () => resolve("crashed");
    page.once("error", onCrash);
  });
  const steps = (async () => {
    await page.evaluate(runExpression(options.source, options.argument ?? {}, key));
    return await page.evaluate(readExpression(key)) as unknown;
  })();
  steps.catch(() => {}); // after a timeout nobody waits for it
  try {
    const text = await Promise.race([steps, timeout, crashed]);
    if (text === "crashed") {
      return rejected("Error", "The page crashed while running the code (out of memory?).");
    }
    if (text === "timeout") {
      return rejected("TimeoutError", `The code did not finish within ${options.timeoutMs} ms.`);
    }
    if (typeof text !== "string") return rejected("TypeError", "The code's answer was not JSON.");
    const answer = JSON.parse(text) as FunctionResult;
    return {
      isFulfilled: answer.isFulfilled === true,
      isRejected: answer.isFulfilled !== true,
      value: answer.value ?? null,
    };
  } catch (error) {
    // The page crashed (out of memory), navigated away, or the code was not valid JavaScript.
    const message = firstLine(error);
    const name = /SyntaxError|Unexpected|Invalid or unexpected/.test(message)
      ? "SyntaxError"
      : "Error";
    return rejected(name, message);
  } finally {
    clearTimeout(timer);
    page.off("error", onCrash);
  }
}

/** Leaves this much of the visit's deadline for answering after caller code that never ends. */
const ANSWER_MARGIN_MS = 1500;

/**
 * The visit's caller code, last in a visit: `evaluate` rules in order, then `function`. Each
 * gets what is left of the deadline, less a margin so the request still answers.
 */
export async function runCallerCode(
  page: Page,
  job: {
    evaluate?: string[];
    function?: { source: string; argument: Record<string, unknown> };
    remaining: (marginMs: number) => number;
  },
): Promise<{ evaluated?: FunctionResult[]; function?: FunctionResult }> {
  const out: { evaluated?: FunctionResult[]; function?: FunctionResult } = {};
  const timeoutMs = () => job.remaining(ANSWER_MARGIN_MS);
  if (job.evaluate?.length) {
    out.evaluated = [];
    for (const source of job.evaluate) {
      const result = await evaluateInPage(page, { source, timeoutMs: timeoutMs() });
      out.evaluated.push(result);
      // A renderer stuck in one rule's loop cannot run the next: the rest are timeouts too.
      if (isTimeout(result)) {
        while (out.evaluated.length < job.evaluate.length) out.evaluated.push(result);
        if (job.function) out.function = result;
        return out;
      }
    }
  }
  if (job.function) {
    out.function = await evaluateInPage(page, { ...job.function, timeoutMs: timeoutMs() });
  }
  return out;
}

function isTimeout(result: FunctionResult): boolean {
  return (result.value as { name?: string } | null)?.name === "TimeoutError";
}
