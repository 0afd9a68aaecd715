import assert from "node:assert/strict";

const UNIT = new URL("../../deploy/linkpeek.service", import.meta.url);

/** `key=value` lines of the [Service] section (comments dropped), in order. */
function serviceSection(text: string): [string, string][] {
  const section = text.split(/^\[/m).find((s) => s.startsWith("Service]")) ?? "";
  return section.split("\n").slice(1).map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at), line.slice(at + 1)];
    });
}

async function systemdAnalyze(args: string[]) {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("systemd-analyze", {
      args,
      env: { SYSTEMD_COLORS: "0", SYSTEMD_PAGER: "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    throw new Error(
      `systemd-analyze is missing (${error}): apt-get install systemd (the CI script installs it)`,
    );
  }
  const text = new TextDecoder();
  return {
    code: output.code,
    stdout: text.decode(output.stdout),
    stderr: text.decode(output.stderr),
  };
}

/** A copy of the unit whose ExecStart names a file that exists, as verify requires. */
async function verifiableCopy(dir: string, edit: (text: string) => string = (t) => t) {
  const text = await Deno.readTextFile(UNIT);
  const path = `${dir}/linkpeek.service`;
  const copy = edit(text.replace(/^ExecStart=\S+/m, `ExecStart=${Deno.execPath()}`));
  await Deno.writeTextFile(path, copy);
  return path;
}

Deno.test("deploy/linkpeek.service passes systemd-analyze verify without a warning", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-unit-" });
  try {
    await t.step("the unit as shipped (ExecStart pointed at an existing binary)", async () => {
      const result = await systemdAnalyze(["verify", await verifiableCopy(dir)]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr.trim(), "", "verify printed warnings");
    });
    await t.step("verify is not a rubber stamp: a misspelt key is reported", async () => {
      const bad = await verifiableCopy(
        dir,
        (text) => text.replace("NoNewPrivileges=", "NoNewPrivilege="),
      );
      const result = await systemdAnalyze(["verify", bad]);
      assert.match(result.stderr, /Unknown key 'NoNewPrivilege'/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deploy/linkpeek.service is hardened without breaking V8 or Chromium", async () => {
  const settings = serviceSection(await Deno.readTextFile(UNIT));
  const get = (key: string) => settings.filter(([k]) => k === key).map(([, v]) => v);
  assert.deepEqual(get("DynamicUser"), ["yes"]);
  assert.deepEqual(get("ProtectSystem"), ["strict"]);
  assert.deepEqual(get("NoNewPrivileges"), ["yes"]);
  assert.deepEqual(get("PrivateTmp"), ["yes"]);
  assert.deepEqual(get("ProtectHome"), ["yes"]);
  assert.deepEqual(get("Restart"), ["on-failure"]);
  assert.deepEqual(get("EnvironmentFile"), ["-/etc/linkpeek/linkpeek.env"], "optional env file");
  // The only writable place is DATA_DIR.
  const dataDir = get("Environment").find((e) => e.startsWith("DATA_DIR="))?.slice(9);
  assert.equal(dataDir, "/var/lib/linkpeek");
  assert.deepEqual(get("ReadWritePaths"), [dataDir]);
  assert.deepEqual(get("StateDirectory"), ["linkpeek"]);
  assert.deepEqual(get("MemoryDenyWriteExecute"), [], "breaks V8's JIT");
  assert.deepEqual(get("RestrictNamespaces"), [], "breaks Chromium's sandbox");
  // Long enough for the in-flight requests graceful shutdown waits for (28 s by default).
  assert.equal(get("KillSignal")[0], "SIGTERM");
  assert.ok(Number.parseInt(get("TimeoutStopSec")[0] ?? "0") > 28);
});

Deno.test("deploy/linkpeek.service exposure score from systemd-analyze security is at most 4", async () => {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-unit-" });
  try {
    const result = await systemdAnalyze(["security", "--offline=true", await verifiableCopy(dir)]);
    const match = /Overall exposure level for linkpeek\.service: ([\d.]+)/.exec(result.stdout);
    assert.ok(match, `no score in: ${result.stdout.slice(-300)} ${result.stderr}`);
    assert.ok(Number(match[1]) <= 4, `exposure ${match[1]}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
