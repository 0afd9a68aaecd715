/**
 * One JSON line per event. Callers never pass header values or URL userinfo.
 *
 * `LOG_LEVEL` (debug|info|warn|error|silent, default info) drops the lines below it. Every line
 * written while a request is served carries that request's id (`requestId`), taken from the
 * request's async context (`inRequest`), so code deep in the fetcher or the guard need not be
 * handed the id.
 *
 * Lines go to stdout, except `log.error` events (something inside linkpeek broke), which go to
 * stderr at once, after anything pending. The one line per answer (`log.answer`) always goes
 * to stdout, whatever its level, so the access log is one stream in order.
 *
 * Stdout lines are gathered and written together at most FLUSH_MS later: one write call per
 * line cost a cached hit about a fifth of its throughput. Pending lines are written on exit and
 * by flushLog() (shutdown).
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type LogFields = Record<string, unknown>;
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };
const LEVELS = Object.keys(RANK) as LogLevel[];

const FLUSH_MS = 20;
const MAX_PENDING_CHARS = 64 * 1024;

/** A LOG_LEVEL value, or a readable Error naming what is accepted. */
export function parseLogLevel(raw: string | undefined): LogLevel {
  const value = (raw ?? "").trim().toLowerCase() || "info";
  if ((LEVELS as string[]).includes(value)) return value as LogLevel;
  throw new Error(`LOG_LEVEL must be one of ${LEVELS.join(", ")}, got "${raw}"`);
}

// At import, so that CLIs and scripts honour LOG_LEVEL too; the service validates it in
// loadConfig() and sets it again from there.
let threshold = RANK[LEVELS.find((l) => l === Deno.env.get("LOG_LEVEL")?.toLowerCase()) ?? "info"];
let pending = "";
let timer: ReturnType<typeof setTimeout> | null = null;
const encoder = new TextEncoder();
const requestContext = new AsyncLocalStorage<string | undefined>();

export function setLogLevel(level: LogLevel): void {
  threshold = RANK[level];
}

/** Tests and benchmarks: no lines at all (true), or back to `info` (false). */
export function setQuiet(value: boolean): void {
  setLogLevel(value ? "silent" : "info");
}

/** Runs `fn` as part of the request `requestId`: every line it logs carries the id. */
export function inRequest<T>(requestId: string, fn: () => T): T {
  return requestContext.run(requestId, fn);
}

/**
 * Runs `fn` outside any request: for long-lived things (the browser and its egress proxy)
 * started while some request waits, whose later lines belong to no request.
 */
export function outsideRequest<T>(fn: () => T): T {
  // Not exit(): in Deno 2.9 the async continuations of exit(fn) see the outer store again.
  return requestContext.run(undefined, fn);
}

function writeAll(stream: typeof Deno.stdout, text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
}

/** Writes the pending lines now. */
export function flushLog(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (pending === "") return;
  const text = pending;
  pending = "";
  writeAll(Deno.stdout, text);
}

globalThis.addEventListener("unload", flushLog);

function line(level: LogLevel, msg: string, fields: LogFields): string {
  const requestId = requestContext.getStore();
  const context = requestId === undefined ? null : { requestId };
  return JSON.stringify({ time: new Date().toISOString(), level, msg, ...context, ...fields }) +
    "\n";
}

function gather(text: string): void {
  pending += text;
  if (pending.length >= MAX_PENDING_CHARS) {
    flushLog();
  } else if (timer === null) {
    const flushing = setTimeout(flushLog, FLUSH_MS);
    // Never keeps the process alive: a line still waiting at exit is written by the listener.
    Deno.unrefTimer(flushing);
    timer = flushing;
  }
}

function write(level: Exclude<LogLevel, "silent">, msg: string, fields: LogFields): void {
  if (RANK[level] < threshold) return;
  if (level !== "error") return gather(line(level, msg, fields));
  flushLog();
  writeAll(Deno.stderr, line(level, msg, fields));
}

/** The level of an answer's line: info for 2xx/3xx, warn for 4xx, error for 5xx. */
export function levelOfStatus(status: number): "info" | "warn" | "error" {
  return status >= 500 ? "error" : status >= 400 ? "warn" : "info";
}

export const log = {
  debug: (msg: string, fields: LogFields = {}) => write("debug", msg, fields),
  info: (msg: string, fields: LogFields = {}) => write("info", msg, fields),
  warn: (msg: string, fields: LogFields = {}) => write("warn", msg, fields),
  error: (msg: string, fields: LogFields = {}) => write("error", msg, fields),
  /** The one line of an answer (msg "request"), on stdout at `level`. */
  answer(level: Exclude<LogLevel, "silent">, fields: LogFields): void {
    if (RANK[level] >= threshold) gather(line(level, "request", fields));
  },
};
