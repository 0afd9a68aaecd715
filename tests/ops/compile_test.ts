import assert from "node:assert/strict";
import { compileArgs, findAssets, findDenort, findUrlModules } from "../../lib/cli/compile.ts";
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url);

async function run(args: string[], env: Record<string, string> = {}, clear: string[] = []) {
  const base = Deno.env.toObject();
  for (const name of clear) delete base[name];
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { ...base, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) out.push(...await tsFiles(`${path}/`));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

Deno.test("deno info --json main.ts reaches every lib/ module except CLIs and workers", async () => {
  const { code, stdout, stderr } = await run(["info", "--json", "main.ts"]);
  assert.equal(code, 0, stderr);
  const graph = JSON.parse(stdout) as { modules: { specifier: string; error?: string }[] };
  const broken = graph.modules.filter((m) => m.error).map((m) => `${m.specifier}: ${m.error}`);
  assert.deepEqual(broken, [], "main.ts imports modules that do not load");
  const reached = new Set(
    graph.modules.map((m) => m.specifier).filter((s) => s.startsWith(ROOT.href)).map((s) =>
      s.slice(ROOT.href.length)
    ),
  );
  // Worker entry points are loaded by URL; the compile task passes them with --include, which
  // brings in what they import too.
  for (const worker of await findUrlModules()) {
    const info = await run(["info", "--json", worker]);
    assert.equal(info.code, 0, info.stderr);
    for (const { specifier } of (JSON.parse(info.stdout) as typeof graph).modules) {
      if (specifier.startsWith(ROOT.href)) reached.add(specifier.slice(ROOT.href.length));
    }
  }
  const unreached = (await tsFiles("lib/")).filter((p) => !p.startsWith("lib/cli/"))
    .filter((p) => !reached.has(p)).sort();
  // A file missing here is dead code or loaded by a computed import that `deno compile` misses.
  assert.deepEqual(unreached, []);
});

Deno.test("no lib/ module loads code by a computed import", async () => {
  const offenders: string[] = [];
  for (const path of await tsFiles("lib/")) {
    const source = await Deno.readTextFile(new URL(path, ROOT));
    for (const match of source.matchAll(/\bimport\s*\(\s*((?:[^()]|\([^()]*\))*)\)/g)) {
      // A literal specifier, with import attributes at most (JSON or bytes shipped in npm
      // packages): deno compile follows those like static imports.
      const literal =
        /^["'][^"']+["'](\s*,\s*\{\s*with:\s*\{\s*type:\s*"(json|bytes|text)"\s*\}\s*\})?$/;
      if (!literal.test(match[1]!.trim())) offenders.push(`${path}: ${match[0]}`);
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("compileArgs() includes every non-TypeScript file under lib/", async () => {
  const assets = await findAssets();
  for (const file of ["lib/playground/index.html", "lib/playground/playground.js"]) {
    assert.ok(assets.includes(file), `${file} is not found as an asset`);
  }
  assert.ok(assets.includes("lib/playground/playground.css"));
  assert.equal(assets.some((a) => a.endsWith(".ts")), false);
  const args = compileArgs({ assets, output: "linkpeek" });
  for (const asset of assets) {
    const at = args.indexOf(asset);
    assert.equal(args[at - 1], "--include", `${asset} is not passed with --include`);
  }
  assert.deepEqual(args.slice(-3), ["--output", "linkpeek", "main.ts"]);
  assert.equal(args[0], "compile");
  for (const flag of ["--allow-net", "--allow-read", "--allow-write", "--allow-env"]) {
    assert.ok(args.includes(flag), flag);
  }
});

Deno.test("findUrlModules() finds modules loaded by URL, such as workers", async () => {
  const root = await Deno.makeTempDir({ prefix: "linkpeek-urlmods-" });
  try {
    const base = new URL(`file://${root}/`);
    await Deno.mkdir(new URL("lib/media/", base), { recursive: true });
    await Deno.writeTextFile(
      new URL("lib/media/pool.ts", base),
      `const url = new URL("./_worker.ts", import.meta.url);\n` +
        `const page = new URL("../page.html", import.meta.url);\n`,
    );
    await Deno.writeTextFile(new URL("lib/media/_worker.ts", base), "self.onmessage = () => {};\n");
    assert.deepEqual(await findUrlModules(base), ["lib/media/_worker.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("findDenort() takes DENORT_BIN, else a cached denort, else explains", async (t) => {
  const empty = await Deno.makeTempDir({ prefix: "linkpeek-denodir-" });
  try {
    await t.step("nothing anywhere: null and a reason naming DENORT_BIN", async () => {
      const found = await findDenort({ env: {}, denoDir: empty });
      assert.equal(found.path, null);
      assert.match(found.reason, /DENORT_BIN is not set/);
      assert.ok(found.reason.includes(`${empty}/dl/release/v${Deno.version.deno}`));
    });
    await t.step("a denort in Deno's download cache is found", async () => {
      const dir = `${empty}/dl/release/v${Deno.version.deno}`;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeFile(`${dir}/denort-x86_64-unknown-linux-gnu.zip`, new Uint8Array(1));
      const found = await findDenort({ env: {}, denoDir: empty });
      assert.equal(found.path, `${dir}/denort-x86_64-unknown-linux-gnu.zip`);
    });
    await t.step("DENORT_BIN wins, and a missing one is named", async () => {
      const bin = `${empty}/denort`;
      await Deno.writeFile(bin, new Uint8Array(1));
      assert.equal((await findDenort({ env: { DENORT_BIN: bin }, denoDir: null })).path, bin);
      const missing = await findDenort({ env: { DENORT_BIN: `${empty}/nope` }, denoDir: null });
      assert.equal(missing.path, null);
      assert.match(missing.reason, /DENORT_BIN is set to ".*\/nope", which is not a file/);
    });
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("deno task compile fails clearly when no denort can be had", async (t) => {
  assert.equal(denoJson.tasks.compile, "deno run --allow-all lib/cli/compile.ts");
  const empty = await Deno.makeTempDir({ prefix: "linkpeek-denodir-" });
  try {
    await t.step("DENORT_BIN naming a missing file", async () => {
      const result = await run(["task", "compile"], { DENORT_BIN: `${empty}/missing-denort` });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /no denort runtime available/);
      assert.match(result.stderr, /Set DENORT_BIN/);
      assert.ok(result.stderr.includes(`${empty}/missing-denort`));
    });
    await t.step("no DENORT_BIN and an empty Deno cache", async () => {
      // The task's own command, with a fresh DENO_DIR: --no-lock keeps it from installing npm.
      const result = await run(
        ["run", "--no-lock", "--allow-all", "lib/cli/compile.ts"],
        { DENO_DIR: empty },
        ["DENORT_BIN"],
      );
      assert.equal(result.code, 1);
      assert.match(result.stderr, /DENORT_BIN is not set/);
      assert.match(result.stderr, /Set DENORT_BIN/);
    });
    await assert.rejects(Deno.stat(new URL("linkpeek-never-made", ROOT)));
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});
