/**
 * `retry` (0-3, default 2 for the page fetch): a target that failed to connect or answered 5xx
 * is asked again after a backoff, within the same fetch deadline. What is not transient (DNS,
 * TLS, the guard, a proxy's refusal, the deadline) is never retried.
 */
import { type ApiError, isApiError } from "../util/errors.ts";
import type { FetchOptions, FetchResult } from "./types.ts";

/** Backoff before retry n (0-based): 250 ms, 500 ms, 1 s. */
export const BACKOFF_MS = [250, 500, 1000];
/** A retry is not started with less time than this left: it could not finish. */
const MIN_ATTEMPT_MS = 500;
const TRANSIENT = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
]);

/** A connection that could not be set up or broke: worth another try. */
export function isTransient(error: unknown): boolean {
  if (!isApiError(error) || error.code !== "EFETCH") return false;
  for (let cause: unknown = (error as ApiError).cause, depth = 0; cause && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string" && TRANSIENT.has(code)) return true;
    if (typeof message === "string" && /socket hang up|connection (reset|closed)/i.test(message)) {
      return true;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `once` up to `options.retries` more times while it fails transiently or answers 5xx,
 * every attempt inside what is left of one `timeoutMs` deadline. The last outcome stands: a
 * 5xx is still an answer (a success carrying its status), a failure still its error.
 */
export async function withRetries(
  once: (options: FetchOptions) => Promise<FetchResult>,
  options: FetchOptions & { timeoutMs: number },
): Promise<FetchResult> {
  const ends = performance.now() + options.timeoutMs;
  const retries = Math.max(0, Math.min(options.retries ?? 0, BACKOFF_MS.length));
  for (let attempt = 0;; attempt++) {
    const left = () => ends - performance.now();
    const last = attempt >= retries;
    let result: FetchResult;
    try {
      result = await once({ ...options, timeoutMs: Math.max(1, Math.round(left())) });
    } catch (error) {
      if (last || !isTransient(error) || left() < BACKOFF_MS[attempt]! + MIN_ATTEMPT_MS) {
        throw error;
      }
      await sleep(BACKOFF_MS[attempt]!, options.signal);
      continue;
    }
    if (last || result.statusCode < 500 || left() < BACKOFF_MS[attempt]! + MIN_ATTEMPT_MS) {
      return result;
    }
    await sleep(BACKOFF_MS[attempt]!, options.signal);
  }
}
