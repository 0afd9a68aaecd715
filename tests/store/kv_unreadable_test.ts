/**
 * firstUnreadable finds the key of a KV value that cannot be read back (which KV's list never
 * names) for string parts of any characters, and finds none where there is none of that shape.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { firstUnreadable } from "../../lib/store/_kv_unreadable.ts";
import { damageMarked } from "./_kv_damage.ts";

const MARKER = new Uint8Array([0x6d, 0x61, 0x72, 0x6b]);

/** A KV file holding `keys` (values readable but the marked one), opened for the test. */
async function withKv(
  keys: Deno.KvKey[],
  marked: Deno.KvKey | null,
  run: (kv: Deno.Kv) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-unreadable-" });
  try {
    let kv = await Deno.openKv(join(dir, "state.kv"));
    for (const key of keys) await kv.set(key, { readable: true });
    if (marked) await kv.set(marked, MARKER);
    kv.close();
    if (marked) damageMarked(dir, MARKER);
    kv = await Deno.openKv(join(dir, "state.kv"));
    try {
      await run(kv);
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const NAMES = ["", "a", "ab", "a\0b", "é", "日本", "😀x", "\uffff", "z".repeat(200)];

Deno.test("firstUnreadable spells out a damaged key whatever its characters", async () => {
  const keys = NAMES.map((name) => ["blob", "ns", name]);
  for (const name of NAMES) {
    const others = keys.filter((key) => key[2] !== name);
    await withKv(others, ["blob", "ns", name], async (kv) => {
      await assert.rejects(Array.fromAsync(kv.list({ prefix: ["blob"] })), RangeError);
      assert.deepEqual(await firstUnreadable(kv, ["blob"], 2), ["blob", "ns", name]);
    });
  }
});

Deno.test("firstUnreadable looks after the cursor, and finds none of another shape", async () => {
  const keys = [["blob", "ns", "a"], ["blob", "ns", "b"], ["blob", "ns", "d"]];
  await withKv(keys, ["blob", "ns", "c"], async (kv) => {
    const entries = kv.list({ prefix: ["blob"] }, { limit: 1 });
    for await (const _ of entries) { /* one entry read */ }
    assert.deepEqual(await firstUnreadable(kv, ["blob"], 2, entries.cursor), ["blob", "ns", "c"]);
  });
  await withKv(keys, null, async (kv) => {
    assert.equal(await firstUnreadable(kv, ["blob"], 2), null, "every value reads back");
  });
  await withKv(keys, ["blob", "ns", 7], async (kv) => {
    assert.equal(await firstUnreadable(kv, ["blob"], 2), null, "a number part");
  });
  await withKv(keys, ["blob", "ns"], async (kv) => {
    assert.equal(await firstUnreadable(kv, ["blob"], 2), null, "one part short");
  });
});
