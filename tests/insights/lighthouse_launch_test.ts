/**
 * A request that ends while its Lighthouse Chromium is still starting leaves nothing behind:
 * no process of that launch, no profile folder. The "still starting" moment is made exact by
 * a gate in front of the real Chromium: a script that records its arguments, waits for the
 * test's go, then becomes Chromium (`exec`, same pid).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ApiError } from "../../lib/util/errors.ts";
import { LighthouseRunner } from "../../lib/insights/lighthouse.ts";
import { pipedChromiumArgs } from "../../lib/insights/lighthouse_chromium.ts";
import { CHROMIUM, poolFor } from "../browser/_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

/** Resolves true once `ready()` holds, polling every 50 ms; false after `ms`. */
async function eventually(ready: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Processes on this machine whose command line contains `text`. */
function processesWith(text: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue;
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes(text)) found.push(Number(entry.name));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a Lighthouse run ended while its Chromium starts leaves no process and no profile", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "linkpeek-gate-" });
  const marker = join(dir, "args");
  const go = join(dir, "go");
  const gate = join(dir, "chromium");
  Deno.writeTextFileSync(
    gate,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${marker}.tmp" && mv "${marker}.tmp" "${marker}"\n` +
      `while [ ! -e "${go}" ]; do sleep 0.05; done\nexec "${CHROMIUM}" "$@"\n`,
  );
  Deno.chmodSync(gate, 0o755);
  await using target = serve({ "/": () => html("<title>Audited</title><p>audited</p>") });
  await using pool = poolFor(testConfig({ trustPorts: [target.port] }));
  const lighthouse = new LighthouseRunner({
    chromiumPath: gate,
    egress: async () => ({ port: await pool.egressPort(), release: () => {} }),
    maxRuns: 1,
  });
  const controller = new AbortController();
  const run = lighthouse.run(`${target.origin}/`, {
    options: { onlyCategories: ["seo"] },
    signal: controller.signal,
    timeoutMs: 30_000,
  });
  let profile = "";
  try {
    assert.ok(await eventually(() => exists(marker), 20_000), "Chromium's launch began");
    profile = Deno.readTextFileSync(marker).split("\n")
      .find((arg) => arg.startsWith("--user-data-dir="))!.slice("--user-data-dir=".length);
    assert.ok(profile, "the launch names its profile folder");
    // The request's deadline, mid-launch.
    controller.abort(new ApiError("ETIMEOUT", "The request took longer than 30000 ms."));
    await assert.rejects(run, (error: unknown) => error instanceof ApiError);
    // A launch that survived would now become a real Chromium.
    Deno.writeTextFileSync(go, "");
    const gone = await eventually(
      () => processesWith(profile).length === 0 && !exists(profile),
      10_000,
    );
    assert.ok(
      gone,
      `left behind: processes ${processesWith(profile).join(",") || "none"}, ` +
        `profile ${exists(profile) ? "still there" : "removed"}`,
    );
    assert.equal(lighthouse.running(), 0);
  } finally {
    Deno.writeTextFileSync(go, "");
    for (const pid of profile ? processesWith(profile) : []) Deno.kill(pid, "SIGKILL");
    if (profile) await Deno.remove(profile, { recursive: true }).catch(() => {});
    await Deno.remove(dir, { recursive: true });
    await lighthouse.close();
  }
});

Deno.test("Lighthouse's Chromium leaves out the defaults the pool's leaves out", async () => {
  const args = await pipedChromiumArgs(9);
  // Flood protection off let a page's pushState loop hold the browser past its deadline.
  assert.ok(!args.includes("--disable-ipc-flooding-protection"), args.join(" "));
  assert.ok(!args.includes("--disable-popup-blocking"), args.join(" "));
  assert.ok(args.includes("--remote-debugging-pipe"), args.join(" "));
});
