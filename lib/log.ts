/** One JSON line per event on stdout. Callers never pass header values or URL userinfo. */
export type LogFields = Record<string, unknown>;

let quiet = Deno.env.get("LOG_LEVEL") === "silent";

export function setQuiet(value: boolean): void {
  quiet = value;
}

function write(level: string, msg: string, fields: LogFields): void {
  if (quiet) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  // deno-lint-ignore no-console
  (level === "error" ? console.error : console.log)(line);
}

export const log = {
  info: (msg: string, fields: LogFields = {}) => write("info", msg, fields),
  warn: (msg: string, fields: LogFields = {}) => write("warn", msg, fields),
  error: (msg: string, fields: LogFields = {}) => write("error", msg, fields),
};
