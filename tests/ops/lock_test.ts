/**
 * The first `deno task start` or `deno task test` downloads every package of deno.lock's npm
 * snapshot, used or not (Deno installs the whole snapshot). So the root lock must hold only
 * what deno.json's imports need; benchmark-only peers (metascraper and the rest) live in
 * bench/deno.lock, under bench/deno.json.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };

const ROOT = new URL("../../", import.meta.url);

interface Lock {
  specifiers: Record<string, string>;
  npm: Record<string, { dependencies?: string[]; optionalDependencies?: string[] }>;
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(new URL(path, ROOT))) as T;
}

/** `name@1.2.3_peer@4` -> `name` (scoped names keep their `@`). */
const nameOf = (key: string) => key.slice(0, key.indexOf("@", 1));

/** Lock keys reachable from `roots`, following each package's dependencies. */
function reachable(lock: Lock, roots: string[]): Set<string> {
  const keys = Object.keys(lock.npm);
  // A dependency is written as its full key, `name@version`, or a bare name when unique.
  const keyOf = (dep: string) =>
    lock.npm[dep]
      ? dep
      : keys.find((k) => k.startsWith(`${dep}_`)) ?? keys.find((k) => nameOf(k) === dep);
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = lock.npm[key]!;
    for (const dep of [...entry.dependencies ?? [], ...entry.optionalDependencies ?? []]) {
      const found = keyOf(dep);
      assert.ok(found, `deno.lock: ${key} depends on ${dep}, which it does not hold`);
      stack.push(found);
    }
  }
  return seen;
}

Deno.test("deno.lock holds exactly the npm packages that deno.json's imports need", async () => {
  const lock = await readJson<Lock>("deno.lock");
  // A folder mapping (`"x/": "npm:/x@1.0.0/"`) imports files of the same package version.
  const imported = [
    ...new Set(
      Object.values(denoJson.imports).filter((s) => s.startsWith("npm:"))
        .map((s) => s.replace(/^npm:\/(.+)\/$/, "npm:$1")),
    ),
  ];
  const extra = Object.keys(lock.specifiers).filter((s) => !imported.includes(s));
  assert.deepEqual(
    extra,
    [],
    "specifiers that deno.json does not import entered deno.lock: run benchmarks with " +
      "--config bench/deno.json (the bench:* tasks do), then prune them from deno.lock",
  );
  const roots = imported.map((specifier) => {
    const name = specifier.slice(4, specifier.lastIndexOf("@"));
    return `${name}@${lock.specifiers[specifier]}`;
  });
  const needed = reachable(lock, roots);
  const unused = Object.keys(lock.npm).filter((key) => !needed.has(key));
  assert.deepEqual(
    unused,
    [],
    "deno.lock holds packages nothing imports: every start downloads them",
  );
});

Deno.test("benchmarks run under bench/deno.json and its own lock", async () => {
  const bench = await readJson<{ importMap: string }>("bench/deno.json");
  assert.equal(bench.importMap, "../deno.json", "the benchmarks resolve the service as it runs");
  const lock = await readJson<Lock>("bench/deno.lock");
  assert.ok(
    Object.keys(lock.npm).some((key) => nameOf(key) === "metascraper"),
    "bench/deno.lock pins bench:extract's peer",
  );
  const tasks = denoJson.tasks as Record<string, string>;
  const benchTasks = Object.entries(tasks).filter(([name]) => name.startsWith("bench:"));
  assert.ok(benchTasks.length >= 3);
  for (const [name, command] of benchTasks) {
    assert.match(command, /--config bench\/deno\.json /, `${name} uses the bench config`);
  }
  assert.match(tasks.ok ?? "", /deno check --config bench\/deno\.json bench\//);
});
