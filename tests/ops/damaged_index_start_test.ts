/**
 * The service, started as `deno task start` runs it, on a DATA_DIR whose cache index holds an
 * entry KV cannot read back: it starts, serving, with one warning naming the entry dropped (it
 * refused to start before). A state.kv SQLite itself cannot read still refuses, in one line
 * naming DATA_DIR.
 */
import assert from "node:assert/strict";
import { EmbeddedStore } from "../../lib/store/embedded.ts";
import { damageKvTable, damageValues, kvKey } from "../store/_kv_damage.ts";
import { refusedStart, startMain } from "./_main_process.ts";

const ENTRY = "a".repeat(64);

/** A DATA_DIR holding two cache entries, damaged by `damage` once the store is closed. */
async function withDataDir(
  damage: (dataDir: string) => void | Promise<void>,
  run: (dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-damaged-start-" });
  try {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
    for (const id of [ENTRY, "b".repeat(64)]) {
      await store.setCache(id, { value: new Uint8Array([1]), ttlMs: 60_000 });
    }
    await store.close();
    await damage(dataDir);
    await run(dataDir);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

Deno.test("a cache index entry KV cannot read back is dropped at start, with one warning", async () => {
  await withDataDir(
    (dataDir) => damageValues(dataDir, [kvKey("blob", "cache", ENTRY)]),
    async (dataDir) => {
      await using main = await startMain({ DATA_DIR: dataDir });
      const health = await fetch(`${main.origin}/health`);
      assert.equal(health.status, 200, "it serves");
      await health.body?.cancel();
      const damage = main.lines.map((line) => JSON.parse(line))
        .filter((line) => line.level === "warn" && /damaged/.test(line.msg));
      assert.deepEqual(
        damage.map(({ msg, blob }) => ({ msg, blob })),
        [{ msg: "damaged blob index entry: dropped", blob: `cache/${ENTRY}` }],
      );
    },
  );
});

Deno.test("a state.kv SQLite cannot read refuses the start in one line naming DATA_DIR", async () => {
  await withDataDir(damageKvTable, async (dataDir) => {
    const error = await refusedStart({ DATA_DIR: dataDir });
    assert.ok(error.startsWith(`DATA_DIR "${dataDir}" cannot hold the state: `), error);
  });
});
