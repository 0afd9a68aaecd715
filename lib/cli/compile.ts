/**
 * `deno task compile`: one self-contained ./linkpeek binary. Every non-TypeScript file under
 * lib/ (the playground's page, script, styles...) is passed with --include, since modules read
 * them with Deno.readFile(new URL(..., import.meta.url)) and the module graph cannot see them.
 *
 * Workers are loaded by URL (`new Worker(new URL("./x.ts", import.meta.url))`), which the module
 * graph cannot see either: every `.ts` file named that way is passed with --include too.
 *
 * `deno compile` needs the denort runtime for this Deno version. These machines cannot download
 * it, so we look for one (DENORT_BIN, or a copy in Deno's cache) and stop with a clear message
 * when there is none, rather than produce something that is not the real binary.
 */

const ROOT = new URL("../../", import.meta.url);

/** Same permissions as `deno task start`. */
export const PERMISSIONS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
];

/** Paths (relative to the repo root) of every file under lib/ that is not TypeScript. */
export async function findAssets(root: URL = ROOT): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (entry.isFile && !path.endsWith(".ts")) found.push(path);
    }
  };
  await walk("lib/");
  return found.sort();
}

/** `.ts` modules under lib/ that some lib/ module names by `new URL("./x.ts", import.meta.url)`. */
export async function findUrlModules(root: URL = ROOT): Promise<string[]> {
  const found = new Set<string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, root))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      if (!entry.isFile || !path.endsWith(".ts")) continue;
      const source = await Deno.readTextFile(new URL(path, root));
      const pattern = /new URL\(\s*["'](\.{1,2}\/[^"']+\.ts)["']\s*,\s*import\.meta\.url\s*\)/g;
      for (const match of source.matchAll(pattern)) {
        const target = new URL(match[1]!, new URL(path, root));
        found.add(target.href.slice(root.href.length));
      }
    }
  };
  await walk("lib/");
  return [...found].sort();
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

async function denoDir(): Promise<string | null> {
  const { success, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!success) return null;
  return (JSON.parse(new TextDecoder().decode(stdout)) as { denoDir?: string }).denoDir ?? null;
}

/** A denort for this Deno: DENORT_BIN if it names a file, else one in `<DENO_DIR>/dl/`. */
export async function findDenort(
  options: { env?: Record<string, string | undefined>; denoDir?: string | null } = {},
): Promise<{ path: string | null; reason: string }> {
  const env = options.env ?? Deno.env.toObject();
  const explicit = env.DENORT_BIN;
  if (explicit) {
    return (await isFile(explicit))
      ? { path: explicit, reason: "DENORT_BIN" }
      : { path: null, reason: `DENORT_BIN is set to "${explicit}", which is not a file` };
  }
  const dir = options.denoDir === undefined ? await denoDir() : options.denoDir;
  const cached = dir ? `${dir}/dl/release/v${Deno.version.deno}` : null;
  if (cached) {
    try {
      for await (const entry of Deno.readDir(cached)) {
        if (entry.isFile && entry.name.startsWith("denort")) {
          return { path: `${cached}/${entry.name}`, reason: "Deno's cache" };
        }
      }
    } catch {
      // no such folder: nothing cached
    }
  }
  return {
    path: null,
    reason: `DENORT_BIN is not set and no denort for Deno ${Deno.version.deno} is in ${
      cached ?? "Deno's cache"
    }`,
  };
}

/** The `deno compile` arguments for main.ts with every asset (and worker module) included. */
export function compileArgs(options: { assets: string[]; output: string }): string[] {
  return [
    "compile",
    ...PERMISSIONS,
    "--unstable-kv",
    "--unstable-raw-imports", // adblock's engine ships as bytes inside an npm package
    // A request's signal aborts only when its client goes away, not after every answer.
    "--unstable-no-legacy-abort",
    ...options.assets.flatMap((asset) => ["--include", asset]),
    "--output",
    options.output,
    "main.ts",
  ];
}

async function main(): Promise<number> {
  const denort = await findDenort();
  const write = (text: string) => Deno.stderr.writeSync(new TextEncoder().encode(text + "\n"));
  if (!denort.path) {
    write(
      `linkpeek compile: no denort runtime available (${denort.reason}).\n` +
        `deno compile needs it and cannot download it here. Set DENORT_BIN to the path of the ` +
        `denort binary for Deno ${Deno.version.deno} (from the denort-<target>.zip of that ` +
        `release), then run \`deno task compile\` again.`,
    );
    return 1;
  }
  const assets = [...await findAssets(), ...await findUrlModules()];
  const args = compileArgs({ assets, output: "linkpeek" });
  write(`linkpeek compile: deno ${args.join(" ")} (denort from ${denort.reason})`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: denort.reason === "DENORT_BIN" ? { DENORT_BIN: denort.path } : {},
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

if (import.meta.main) Deno.exit(await main());
