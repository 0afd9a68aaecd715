/**
 * One JSON line per event on stdout (errors on stderr). Callers never pass header values or URL
 * userinfo.
 *
 * Info and warning lines are gathered and written together at most FLUSH_MS later: one write
 * call per line cost a cached hit about a fifth of its throughput. Errors are written at once,
 * after anything pending. Pending lines are written on exit and by flushLog() (shutdown).
 */
export type LogFields = Record<string, unknown>;

const FLUSH_MS = 20;
const MAX_PENDING_CHARS = 64 * 1024;

let quiet = Deno.env.get("LOG_LEVEL") === "silent";
let pending = "";
let timer: ReturnType<typeof setTimeout> | null = null;
const encoder = new TextEncoder();

export function setQuiet(value: boolean): void {
  quiet = value;
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

function write(level: string, msg: string, fields: LogFields): void {
  if (quiet) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + "\n";
  if (level === "error") {
    flushLog();
    writeAll(Deno.stderr, line);
    return;
  }
  pending += line;
  if (pending.length >= MAX_PENDING_CHARS) {
    flushLog();
  } else if (timer === null) {
    const flushing = setTimeout(flushLog, FLUSH_MS);
    // Never keeps the process alive: a line still waiting at exit is written by the listener.
    Deno.unrefTimer(flushing);
    timer = flushing;
  }
}

export const log = {
  info: (msg: string, fields: LogFields = {}) => write("info", msg, fields),
  warn: (msg: string, fields: LogFields = {}) => write("warn", msg, fields),
  error: (msg: string, fields: LogFields = {}) => write("error", msg, fields),
};
