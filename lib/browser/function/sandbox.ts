/**
 * Runs the `function` parameter as Microlink does, with the page API, but never in linkpeek's
 * process: a `deno run` child with no permissions (no files, network, environment or
 * processes), a V8 heap cap, every local module import refused by its import map, and no
 * Workers. It talks to the page only through page calls (performPageCall), one JSON line each
 * way, and is killed at the deadline. A Deno Worker was not enough: one that exhausts its heap
 * takes the whole process down.
 */
import type { Page } from "puppeteer-core";
import { fileURLToPath } from "node:url";
import { firstLine } from "../capture.ts";
import { jsonDepth } from "../../util/json_depth.ts";
import { concatBytes } from "../../util/bytes.ts";
import { ElementTable, PageCallError, performPageCall } from "./page_calls.ts";
import { currentSandboxRuntime } from "./runtime.ts";
import type { FunctionProfiling } from "../types.ts";

/** The function's V8 heap (Microlink's pro plan allows 32 MB of heap). */
export const FUNCTION_HEAP_MB = 64;
/** Characters of console output kept in `logging`, all levels together. */
export const MAX_LOG_CHARS = 64 * 1024;
/** Page calls one function may have under way at once, and in all. */
const MAX_IN_FLIGHT = 16;
const MAX_CALLS = 5000;
/** Bytes one message line may take: a value at the cap, as UTF-8, with room to spare. */
const MAX_LINE_BYTES = 4 * 1024 * 1024 + 64 * 1024;

const RUNNER = new URL("./runner.js", import.meta.url);

export type { FunctionProfiling } from "../types.ts";

/** Microlink's answer for a function: settled value plus profiling and captured console. */
export interface SandboxAnswer {
  isFulfilled: boolean;
  value: unknown;
  profiling: FunctionProfiling;
  logging: Record<string, string[]>;
  /** Characters of the value's JSON (what counts against the request's total). */
  chars: number;
}

export interface SandboxJob {
  source: string;
  argument: Record<string, unknown>;
  page: Page;
  timeoutMs: number;
  /** At most `chars` characters of JSON, or the rejection `tooLarge`. */
  limit: { chars: number; tooLarge: string };
  maxDepth: number;
}

/**
 * The child's command line. The import map sends every `file:` import but the runner's own
 * to a place it may not read: Deno lets a process with no read permission import local files
 * (and so read them as code), the map closes that.
 */
function command(deno: string): Deno.Command {
  const map = JSON.stringify({
    imports: { [RUNNER.href]: RUNNER.href, "file:///": "file:///linkpeek-function-refused/" },
  });
  const env: Record<string, string> = { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
  for (const name of ["HOME", "DENO_DIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  return new Deno.Command(deno, {
    args: [
      "run",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      "--no-npm",
      "--no-remote",
      `--import-map=data:application/json,${map}`,
      `--v8-flags=--max-old-space-size=${FUNCTION_HEAP_MB}`,
      fileURLToPath(RUNNER),
    ],
    clearEnv: true,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
}

type Message =
  | { type: "start" }
  | { type: "built" }
  | { type: "call"; id: number; method: unknown; args: unknown }
  | { type: "log"; level: string; text: string }
  | { type: "done"; isFulfilled: boolean; value: unknown; usage?: unknown };

/** What the sandbox measured of itself: CPU milliseconds and memory bytes since the job. */
type Usage = Pick<FunctionProfiling, "cpu" | "memory">;

/**
 * The sandbox's own report, kept only as the numbers it should be: the function runs in that
 * process and could send anything in their place (a long string would bloat the answer).
 */
function readUsage(raw: unknown): Usage {
  const count = (v: unknown) =>
    typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : null;
  const report = (raw ?? {}) as { cpu?: unknown; memory?: Record<string, unknown> | null };
  const m = report.memory ?? {};
  const memory = {
    total: count(m.total),
    used: count(m.used),
    heap: count(m.heap),
    external: count(m.external),
  };
  const complete = Object.values(memory).every((v) => v !== null);
  return {
    cpu: count(report.cpu),
    memory: complete ? memory as NonNullable<Usage["memory"]> : null,
  };
}

/** Lines of the child's stdout; a line over MAX_LINE_BYTES ends the reading with `false`. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string | false> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, end));
      yield decoder.decode(concatBytes(parts));
      parts = [];
      size = 0;
      start = end + 1;
    }
    size += chunk.length - start;
    if (size > MAX_LINE_BYTES) {
      yield false;
      return;
    }
    if (start < chunk.length) parts.push(chunk.slice(start));
  }
}

/** The last bytes of the child's stderr: how it died, when it did. */
async function tail(stream: ReadableStream<Uint8Array>): Promise<string> {
  let kept = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) kept = (kept + decoder.decode(chunk)).slice(-4096);
  return kept;
}

const errorOf = (name: string, message: string) => ({ name, message });

/** Runs the function; never rejects. */
export async function runSandboxed(job: SandboxJob): Promise<SandboxAnswer> {
  const startedAt = performance.now();
  const logging: Record<string, string[]> = {};
  let logLeft = MAX_LOG_CHARS;
  // The child says when it starts compiling the source and when that is done.
  let ranAt: number | null = null;
  let builtAt: number | null = null;
  const profile = (usage?: Usage): FunctionProfiling => {
    const now = performance.now();
    const started = ranAt ?? now;
    const built = builtAt ?? now;
    return {
      phases: {
        // Nothing is ever installed: a `require` is refused before the sandbox starts.
        install: 0,
        build: Math.round(built - started),
        spawn: Math.round(started - startedAt),
        run: Math.round(now - built),
        total: Math.round(now - startedAt),
      },
      // Only the sandbox can measure these, in its answer: a killed one gave none.
      cpu: usage?.cpu ?? null,
      memory: usage?.memory ?? null,
      size: new TextEncoder().encode(job.source).length,
    };
  };
  const rejected = (name: string, message: string, usage?: Usage) => ({
    isFulfilled: false,
    value: errorOf(name, message),
    profiling: profile(usage),
    logging,
    chars: 0,
  });

  const runtime = currentSandboxRuntime();
  if ("refused" in runtime) return rejected("Error", runtime.refused);
  let child: Deno.ChildProcess;
  try {
    child = command(runtime.deno).spawn();
  } catch (error) {
    return rejected("Error", `The function's sandbox could not start (${firstLine(error)}).`);
  }
  const stderr = tail(child.stderr);
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  let writing: Promise<unknown> = Promise.resolve();
  const send = (message: unknown) => {
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    writing = writing.then(() => writer.write(bytes)).catch(() => {});
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), job.timeoutMs);
  });

  let inFlight = 0;
  let calls = 0;
  const elements = new ElementTable();
  const onCall = (message: { id: number; method: unknown; args: unknown }) => {
    if (inFlight >= MAX_IN_FLIGHT || ++calls > MAX_CALLS) {
      const why = inFlight >= MAX_IN_FLIGHT
        ? `at most ${MAX_IN_FLIGHT} page calls may be under way at once`
        : `at most ${MAX_CALLS} page calls per function`;
      send({ id: message.id, ok: false, error: errorOf("RangeError", why) });
      return;
    }
    inFlight++;
    const ctx = {
      page: job.page,
      elements,
      remaining: () => job.timeoutMs - (performance.now() - startedAt),
    };
    performPageCall(message.method, message.args, ctx).then(
      (value) => send({ id: message.id, ok: true, value: value ?? null }),
      (error) => {
        const name = error instanceof PageCallError || error instanceof Error
          ? error.name
          : "Error";
        send({ id: message.id, ok: false, error: errorOf(name, firstLine(error)) });
      },
    ).finally(() => inFlight--);
  };
  const onLog = ({ level, text }: { level: string; text: string }) => {
    if (logLeft <= 0 || typeof text !== "string" || !/^(log|info|warn|error|debug)$/.test(level)) {
      return;
    }
    const kept = text.slice(0, logLeft);
    logLeft -= kept.length;
    (logging[level] ??= []).push(kept);
  };

  const settled = (done: Extract<Message, { type: "done" }>): SandboxAnswer => {
    const value = done.value ?? null;
    const chars = done.isFulfilled === true ? JSON.stringify(value).length : 0;
    const usage = readUsage(done.usage);
    if (chars > job.limit.chars) return rejected("RangeError", job.limit.tooLarge, usage);
    return {
      isFulfilled: done.isFulfilled === true,
      value: done.isFulfilled === true ? value : rejection(value),
      profiling: profile(usage),
      logging,
      chars,
    };
  };

  const conversation = (async (): Promise<SandboxAnswer> => {
    send({
      source: job.source,
      argument: job.argument,
      limitChars: job.limit.chars,
      tooLarge: job.limit.tooLarge,
      maxDepth: job.maxDepth,
      maxLogChars: MAX_LOG_CHARS,
    });
    for await (const line of lines(child.stdout)) {
      if (line === false) return rejected("RangeError", job.limit.tooLarge);
      if (jsonDepth(line, job.maxDepth + 1) > job.maxDepth + 1) {
        return rejected(
          "RangeError",
          `The value nests arrays and objects deeper than ${job.maxDepth} levels`,
        );
      }
      let message: Message;
      try {
        message = JSON.parse(line);
      } catch {
        return rejected("TypeError", "The function's answer was not JSON.");
      }
      if (message === null || typeof message !== "object") continue;
      if (message.type === "start") ranAt = performance.now();
      else if (message.type === "built") builtAt = performance.now();
      else if (message.type === "call") onCall(message);
      else if (message.type === "log") onLog(message);
      else if (message.type === "done") return settled(message);
    }
    const status = await child.status;
    const why = await stderr;
    if (/out of memory|heap limit/i.test(why)) {
      // Microlink's name for a function past its memory limit.
      return rejected("MemoryError", `The function ran out of memory (${FUNCTION_HEAP_MB} MB).`);
    }
    return rejected(
      "Error",
      `The function ended before it answered (exit code ${status.code}).`,
    );
  })();
  try {
    const outcome = await Promise.race([conversation, timedOut]);
    if (outcome === "timeout") {
      return rejected("TimeoutError", `The code did not finish within ${job.timeoutMs} ms.`);
    }
    return outcome;
  } catch (error) {
    return rejected("Error", firstLine(error));
  } finally {
    clearTimeout(timer);
    try {
      child.kill("SIGKILL");
    } catch {
      // it had exited
    }
    await child.status;
    await elements.disposeAll();
    conversation.catch(() => {});
    await writer.close().catch(() => {});
    await stderr.catch(() => {});
  }
}

/** A rejection's value as Microlink gives it: name and message strings, and its extra fields. */
function rejection(value: unknown): Record<string, unknown> {
  const object = value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
  return {
    ...object,
    name: String(object.name ?? "Error"),
    message: String(object.message ?? value),
  };
}
