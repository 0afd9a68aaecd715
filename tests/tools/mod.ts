/**
 * Developer tools that tests run as processes of their own: the OpenAPI linters, the client
 * generator, the client library a generated client is checked against, and the MCP Inspector.
 *
 * Nothing imports them. Each runs as `deno run --no-config` under its own lockfile
 * (`tools.lock` beside this file, frozen), so neither the service's module graph nor the root
 * lockfile ever names them: `deno task start` never downloads them. They get no network
 * permission (but the Inspector: see runInspector): they read (and, for the generator, write)
 * local files only.
 *
 * To change a version: edit TOOLS, then run the tests that use it once with
 * `TOOLS_LOCK=update` in the environment so that tools.lock is rewritten, and commit it.
 */
import { fileURLToPath } from "node:url";

export const TOOLS = {
  redocly: "npm:@redocly/cli@2.77.0",
  spectral: "npm:@stoplight/spectral-cli@6.16.3",
  openapiTypescript: "npm:openapi-typescript@7.13.0",
  openapiFetch: "npm:openapi-fetch@0.17.0",
  inspector: "npm:@modelcontextprotocol/inspector@2.12.0",
} as const;

const LOCK = fileURLToPath(new URL("./tools.lock", import.meta.url));

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

function denoFlags(): string[] {
  const frozen = Deno.env.get("TOOLS_LOCK") === "update" ? [] : ["--frozen"];
  return ["--no-config", `--lock=${LOCK}`, ...frozen];
}

async function run(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<ToolRun> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      // Belt and braces: no network permission is granted anyway.
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** Runs a tool of TOOLS in `cwd`, which is also the only folder it may write to. */
export function runTool(tool: keyof typeof TOOLS, args: string[], cwd: string): Promise<ToolRun> {
  return run([
    "run",
    ...denoFlags(),
    "--no-prompt",
    "--allow-read",
    `--allow-write=${cwd}`,
    "--allow-env",
    "--allow-sys",
    TOOLS[tool],
    ...args,
  ], cwd);
}

/** `deno check` of one file under the tools' lockfile (its npm imports must be in TOOLS). */
export function typeCheck(file: string, cwd: string): Promise<ToolRun> {
  return run(["check", ...denoFlags(), file], cwd);
}

/** A failure message that names the tool and shows what it printed. */
export function describeRun(what: string, result: ToolRun): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n` +
    `--- stderr\n${result.stderr.slice(-4000)}`;
}

/**
 * The MCP Inspector's CLI, run against a server on loopback with `home` as its HOME (it keeps
 * state there). It gets every permission: it reads /proc as it starts (a WSL check), which
 * Deno grants only with all of them.
 */
export async function runInspector(args: string[], home: string): Promise<ToolRun> {
  const flags = [...denoFlags(), "--no-prompt", "--allow-all"];
  // Under another HOME, Deno would look for its cache there: the cache is named outright.
  const env = { HOME: home, DENO_DIR: await denoDir() };
  return await run(["run", ...flags, TOOLS.inspector, "--cli", ...args], home, env);
}

async function denoDir(): Promise<string> {
  const { stdout } = await run(["info", "--json"], ".");
  return JSON.parse(stdout).denoDir;
}

/**
 * stderr without Deno's own notices: its boxed ones (ignored install scripts and the like), and
 * the "Download <url>" line of each package fetched on a first run with an empty cache.
 */
export function withoutDenoNotices(stderr: string): string {
  return stderr.replace(/^╭[^\n]*\n(?:│[^\n]*\n)*╰[^\n]*\n?/gm, "")
    .replace(/^Download https?:\/\/\S+\n?/gm, "");
}
