/**
 * A service that cannot start says why in one line and exits 1: no uncaught-promise stack
 * trace for an operator to read through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { refusedStart } from "./_main_process.ts";

Deno.test("a DATA_DIR that cannot be made is a one-line start-up error naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-start-error-" });
  try {
    const file = join(dir, "a-file");
    await Deno.writeTextFile(file, "");
    const dataDir = join(file, "data");
    const error = await refusedStart({ DATA_DIR: dataDir });
    assert.match(error, /DATA_DIR/);
    assert.ok(error.includes(dataDir), error);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bad setting is a one-line start-up error naming it", async () => {
  assert.match(await refusedStart({ FREE_DAILY_LIMIT: "lots" }), /FREE_DAILY_LIMIT/);
});
