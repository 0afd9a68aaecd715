/**
 * A service that cannot start says why in one line and exits 1: no uncaught-promise stack
 * trace for an operator to read through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMain } from "./_main_process.ts";

Deno.test("a DATA_DIR that cannot be made is a one-line start-up error naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-start-error-" });
  try {
    const file = join(dir, "a-file");
    await Deno.writeTextFile(file, "");
    const dataDir = join(file, "data");
    const { code, stderr } = await runMain({ DATA_DIR: dataDir });
    assert.equal(code, 1, stderr);
    const lines = stderr.trim().split("\n");
    assert.equal(lines.length, 1, stderr);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.msg, "cannot start");
    assert.match(line.error, /DATA_DIR/);
    assert.ok(line.error.includes(dataDir), line.error);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bad setting is a one-line start-up error naming it", async () => {
  const { code, stderr } = await runMain({ FREE_DAILY_LIMIT: "lots" });
  assert.equal(code, 1, stderr);
  const lines = stderr.trim().split("\n");
  assert.equal(lines.length, 1, stderr);
  assert.match(JSON.parse(lines[0]!).error, /FREE_DAILY_LIMIT/);
});
