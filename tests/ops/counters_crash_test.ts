/**
 * The embedded daily counters survive a crash within their stated bound: main.ts (as `deno task
 * start` runs it) is killed with SIGKILL right after answering, and restarted on the same
 * DATA_DIR.
 */
import assert from "node:assert/strict";
import { startMain } from "./_main_process.ts";
import { maxUnsaved } from "../../lib/store/types.ts";

const LIMIT = 50;

/** One free API request (no url: EINVALURL, counted like any); the rate-limit header read. */
async function remaining(origin: string): Promise<number> {
  const response = await fetch(`${origin}/?url=`, { headers: { accept: "application/json" } });
  await response.body?.cancel();
  assert.equal(response.status, 400);
  return Number(response.headers.get("x-rate-limit-remaining"));
}

Deno.test("a SIGKILL loses at most a twentieth of a daily limit of free requests", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-crash-" });
  const env = { DATA_DIR: dataDir, FREE_DAILY_LIMIT: String(LIMIT) };
  try {
    const counted = 15;
    {
      await using first = await startMain(env);
      let left = LIMIT;
      for (let i = 0; i < counted; i++) left = await remaining(first.origin);
      assert.equal(left, LIMIT - counted);
      first.child.kill("SIGKILL");
      assert.equal((await first.exited).signal, "SIGKILL");
    }
    await using second = await startMain(env);
    const left = await remaining(second.origin);
    // This request counts too; the crash forgot at most maxUnsaved of the 15 before it.
    const lost = left - (LIMIT - counted - 1);
    assert.ok(lost >= 0, `counted ${-lost} requests twice`);
    assert.ok(lost <= maxUnsaved(LIMIT), `the crash forgot ${lost} of ${counted} requests`);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
