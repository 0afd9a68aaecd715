/**
 * Caller JavaScript of a visit: `evaluate` custom rules run inside the visited page, in the
 * browser's renderer; the `function` parameter runs in its own sandboxed process with the page
 * API (runSandboxed). Never in linkpeek's process. The answer is Microlink's
 * `{ isFulfilled, isRejected, value }`, where value is JSON (anything else is a rejection), and
 * for `function` its `profiling` and `logging` too.
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
import { jsonDepth } from "../util/json_depth.ts";
import { runSandboxed } from "./function/sandbox.ts";
import type { FunctionResult } from "./types.ts";

/** Characters of JSON one value may take. */
export const MAX_VALUE_CHARS = 1024 * 1024;

/**
 * Characters of JSON all the values of one request's caller code may take together (its
 * `evaluate` rules, in order, then `function`): without it 50 rules and a function at the
 * per-value cap made a 50 MB answer and cache entry, and half a second of event loop to
 * serialize it. A value past what is left is rejected, like one past the per-value cap.
 */
export const MAX_TOTAL_CHARS = 2 * MAX_VALUE_CHARS;

/**
 * Levels of arrays and objects one value may nest. Checked in the page before serializing (a
 * clear rejection rather than a stack overflow) and again here on the text that comes back,
 * since the page's own scripts can replace anything in its world, `JSON.stringify` included:
 * clients' JSON parsers (and structured clone) fail on values nested thousands deep.
 */
export const MAX_VALUE_DEPTH = 64;

/** What one run may return: at most `chars` characters of JSON, or `tooLarge` rejects it. */
interface Limit {
  chars: number;
  tooLarge: string;
}

/** The first step: the caller's source, run, its JSON answer left under `key`. */
function runExpression(source: string, argument: unknown, key: string, limit: Limit): string {
  return `globalThis[${JSON.stringify(key)}] = (async () => {
  const reject = (e) => ({ isFulfilled: false, isRejected: true,
    value: { name: String((e && e.name) || "Error"), message: String((e && e.message) || e) } });
  let value;
  try {
    const run = (
${source}
    );
    value = await (typeof run === "function" ? run(${JSON.stringify(argument)}) : run);
  } catch (e) {
    return JSON.stringify(reject(e));
  }
  const stack = [[value, 0]];
  const seen = new Set();
  while (stack.length) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object" || seen.has(item)) continue;
    if (depth >= ${MAX_VALUE_DEPTH}) {
      return JSON.stringify(reject({ name: "RangeError",
        message: "The value nests arrays and objects deeper than ${MAX_VALUE_DEPTH} levels" }));
    }
    seen.add(item);
    for (const name of Object.keys(item)) stack.push([item[name], depth + 1]);
  }
  let json;
  try {
    json = JSON.stringify(value === undefined ? null : value);
  } catch (e) {
    return JSON.stringify(reject({ name: "TypeError",
      message: "The value is not JSON (" + ((e && e.message) || e) + ")" }));
  }
  if (json.length > ${limit.chars}) {
    return JSON.stringify(reject({ name: "RangeError", message: ${
    JSON.stringify(limit.tooLarge)
  } }));
  }
  return '{"isFulfilled":true,"isRejected":false,"value":' + json + "}";
})();
void 0;`;
}

/** Characters the answer's wrapper (`{"isFulfilled":...,"value":` and `}`) adds to a value. */
const WRAPPER_CHARS = 100;

/** The second step, linkpeek's own: only a bounded string leaves the page (false: too long). */
function readExpression(key: string, limit: Limit): string {
  return `(async () => {
  const text = await globalThis[${JSON.stringify(key)}];
  if (typeof text !== "string") return null;
  return text.length <= ${limit.chars + WRAPPER_CHARS} ? text : false;
})()`;
}

function rejected(name: string, message: string): FunctionResult {
  return { isFulfilled: false, isRejected: true, value: { name, message } };
}

/** A run's result and the characters of JSON it took (what counts against the total). */
interface Ran {
  result: FunctionResult;
  chars: number;
}

/** Runs `source` (a function, called with `argument`, or an expression) in the page. */
export async function evaluateInPage(
  page: Page,
  options: { source: string; argument?: Record<string, unknown>; timeoutMs: number; limit: Limit },
): Promise<Ran> {
  const key = `__linkpeek_${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`;
  const { limit } = options;
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
    await page.evaluate(runExpression(options.source, options.argument ?? {}, key, limit));
    return await page.evaluate(readExpression(key, limit)) as unknown;
  })();
  steps.catch(() => {}); // after a timeout nobody waits for it
  const fails = (name: string, message: string): Ran => ({
    result: rejected(name, message),
    chars: 0,
  });
  try {
    const text = await Promise.race([steps, timeout, crashed]);
    if (text === "crashed") {
      return fails("Error", "The page crashed while running the code (out of memory?).");
    }
    if (text === "timeout") {
      return fails("TimeoutError", `The code did not finish within ${options.timeoutMs} ms.`);
    }
    if (text === false) return fails("RangeError", limit.tooLarge);
    if (typeof text !== "string") return fails("TypeError", "The code's answer was not JSON.");
    // The answer's wrapper is one level: the value may nest MAX_VALUE_DEPTH below it.
    if (jsonDepth(text, MAX_VALUE_DEPTH + 1) > MAX_VALUE_DEPTH + 1) {
      return fails("RangeError", TOO_DEEP);
    }
    const answer = JSON.parse(text) as FunctionResult;
    return {
      result: {
        isFulfilled: answer.isFulfilled === true,
        isRejected: answer.isFulfilled !== true,
        value: answer.value ?? null,
      },
      chars: text.length,
    };
  } catch (error) {
    // The page crashed (out of memory), navigated away, or the code was not valid JavaScript.
    const message = firstLine(error);
    const name = /SyntaxError|Unexpected|Invalid or unexpected/.test(message)
      ? "SyntaxError"
      : "Error";
    return fails(name, message);
  } finally {
    clearTimeout(timer);
    page.off("error", onCrash);
  }
}

const TOO_DEEP = `The value nests arrays and objects deeper than ${MAX_VALUE_DEPTH} levels`;

/** What the next run may return, given the characters earlier runs of the request took. */
function limitAfter(used: number): Limit {
  const left = Math.max(0, MAX_TOTAL_CHARS - used);
  return left < MAX_VALUE_CHARS
    ? {
      chars: left,
      tooLarge: `The values of this request's evaluate rules and function are larger than ` +
        `${MAX_TOTAL_CHARS} characters of JSON together`,
    }
    : {
      chars: MAX_VALUE_CHARS,
      tooLarge: `The value is larger than ${MAX_VALUE_CHARS} characters of JSON`,
    };
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
    /** Lets the main frame navigate again: the function may go to other pages. */
    allowNavigation: () => void;
    /** The navigation's answer, for the function's `response`. */
    response: { url: string; status: number; headers: Record<string, string> };
    /** The request headers of the navigation, for the function's `headers` (functionHeaders). */
    requestHeaders: Record<string, string>;
    remaining: (marginMs: number) => number;
  },
): Promise<{ evaluated?: FunctionResult[]; function?: FunctionResult }> {
  const out: { evaluated?: FunctionResult[]; function?: FunctionResult } = {};
  let used = 0;
  const run = async (code: { source: string; argument?: Record<string, unknown> }) => {
    const timeoutMs = wholeMs(job.remaining(ANSWER_MARGIN_MS));
    const ran = await evaluateInPage(page, { ...code, timeoutMs, limit: limitAfter(used) });
    used += ran.chars;
    return ran.result;
  };
  if (job.evaluate?.length) {
    out.evaluated = [];
    for (const source of job.evaluate) {
      const result = await run({ source });
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
    const { source, argument } = job.function;
    job.allowNavigation();
    const answer = await runSandboxed({
      source,
      argument: {
        ...argument,
        ...await pageArgument(page, source),
        response: job.response,
        headers: job.requestHeaders,
      },
      page,
      timeoutMs: wholeMs(job.remaining(ANSWER_MARGIN_MS)),
      limit: limitAfter(used),
      maxDepth: MAX_VALUE_DEPTH,
    });
    const { chars: _chars, isFulfilled, ...rest } = answer;
    out.function = { isFulfilled, isRejected: !isFulfilled, ...rest };
  }
  return out;
}

/** A time limit as the caller reads it in a timeout's message: "within 8431 ms". */
function wholeMs(ms: number): number {
  return Math.max(1, Math.floor(ms));
}

/** Characters of the page's HTML a function's `html` may have. */
const MAX_FUNCTION_HTML = 4 * 1024 * 1024;

/**
 * `html`, the rendered page, only for a function that names it: a copy of a large page into
 * the sandbox's small heap is not paid for by functions that never read it.
 */
async function pageArgument(page: Page, source: string): Promise<{ html?: string }> {
  if (!/\bhtml\b/.test(source)) return {};
  const html = await page.content().catch(() => "");
  return { html: html.slice(0, MAX_FUNCTION_HTML) };
}

function isTimeout(result: FunctionResult): boolean {
  return (result.value as { name?: string } | null)?.name === "TimeoutError";
}
