/**
 * One linkpeek process per DATA_DIR: a second one on the same DATA_DIR refuses to start with the
 * one-line start-up error naming it (and the owner's pid); a crash of the owner (SIGKILL) does
 * not block the next start. Real processes, as `deno task start` runs them.
 */
import assert from "node:assert/strict";
import { refusedStart, startMain } from "./_main_process.ts";

Deno.test("a second process on the same DATA_DIR refuses to start; a SIGKILL frees it", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-lock-" });
  try {
    {
      await using first = await startMain({ DATA_DIR: dataDir });
      const error = await refusedStart({ DATA_DIR: dataDir });
      assert.ok(error.includes(`DATA_DIR "${dataDir}" is in use`), error);
      assert.ok(error.includes(`pid ${first.child.pid}`), error);

      const health = await fetch(`${first.origin}/health`);
      assert.equal(health.status, 200, "the owner still serves");
      await health.body?.cancel();
      first.child.kill("SIGKILL");
      assert.equal((await first.exited).signal, "SIGKILL");
    }
    await using next = await startMain({ DATA_DIR: dataDir });
    const health = await fetch(`${next.origin}/health`);
    assert.equal(health.status, 200, "the next start after a crash serves");
    await health.body?.cancel();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
