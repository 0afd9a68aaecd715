/**
 * main.ts as a real subprocess (as `deno task start` runs it) on a free loopback port, with
 * its stdout collected line by line: for the log and graceful-shutdown tests.
 */
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url);

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export interface MainProcess extends AsyncDisposable {
  origin: string;
  child: Deno.ChildProcess;
  /** stdout lines so far. */
  lines: string[];
  stderr(): string;
  /** Resolves with the exit status once the process is gone. */
  exited: Promise<Deno.CommandStatus>;
}

/** The permission flags of `deno task start`, so the test runs what operators run. */
function startArgs(): string[] {
  const task = denoJson.tasks.start.split(/\s+/);
  assertEqual(task.slice(0, 2).join(" "), "deno run");
  return task.slice(2);
}

function assertEqual(actual: string, expected: string) {
  if (actual !== expected) throw new Error(`deno.json tasks.start must start with "${expected}"`);
}

async function collect(stream: ReadableStream<Uint8Array>, into: string[]): Promise<void> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of stream) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = parts.pop()!;
    into.push(...parts.filter(Boolean));
  }
  if (rest) into.push(rest);
}

export async function startMain(env: Record<string, string>): Promise<MainProcess> {
  const port = freePort();
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-main-" });
  const base = Deno.env.toObject();
  delete base.LOG_LEVEL;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...startArgs()],
    cwd: ROOT,
    clearEnv: true,
    env: {
      ...base,
      NO_COLOR: "1",
      PORT: String(port),
      LISTEN_HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      CHROMIUM_PATH: "/usr/bin/chromium",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const errors: string[] = [];
  const reading = Promise.all([collect(child.stdout, lines), collect(child.stderr, errors)]);
  const exited = child.status.then(async (status) => {
    await reading;
    return status;
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (lines.some((l) => l.includes('"msg":"listening"'))) break;
    const done = await Promise.race([exited, new Promise((r) => setTimeout(r, 50, null))]);
    if (done) throw new Error(`main.ts exited early:\n${errors.join("\n")}`);
  }
  if (!lines.some((l) => l.includes('"msg":"listening"'))) {
    child.kill("SIGKILL");
    await exited;
    throw new Error(`main.ts did not log "listening" within 15 s:\n${errors.join("\n")}`);
  }
  return {
    origin,
    child,
    lines,
    stderr: () => errors.join("\n"),
    exited,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await exited;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** How long runMain() waits for a process that should stop at start-up. */
const RUN_BOUND_MS = 60_000;

/**
 * main.ts as `deno task start` runs it, to its end; its exit code and stderr. One still running
 * after RUN_BOUND_MS (it started when it should not have) is killed: code null.
 */
export async function runMain(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...startArgs()],
    cwd: ROOT,
    env: { NO_COLOR: "1", PORT: String(freePort()), LISTEN_HOST: "127.0.0.1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<null>((resolve) => timer = setTimeout(resolve, RUN_BOUND_MS, null));
  const ended = await Promise.race([child.status, bound]);
  clearTimeout(timer);
  if (!ended) {
    child.kill("SIGKILL");
    await child.status;
  }
  return { code: ended ? ended.code : null, stderr: await stderr };
}

/**
 * The error a start refused with: main.ts (under `deno task start`'s flags) must exit 1 with one
 * `cannot start` JSON line on stderr, no stack trace.
 */
export async function refusedStart(env: Record<string, string>): Promise<string> {
  const { code, stderr } = await runMain(env);
  const lines = stderr.trim().split("\n");
  if (code !== 1 || lines.length !== 1) {
    throw new Error(`expected exit 1 and one line, got ${code}:\n${stderr}`);
  }
  const line = JSON.parse(lines[0]!);
  if (line.msg !== "cannot start") throw new Error(`not a refused start: ${lines[0]}`);
  return line.error;
}
