/**
 * Damage done to an embedded store's state.kv behind Deno KV's back, by writing its SQLite rows
 * and pages directly, as a bad disk or a crash mid-write would.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

const encoder = new TextEncoder();

/** The bytes of a KV key of strings, as Deno KV orders them (tuple encoding). */
export function kvKey(...parts: string[]): Uint8Array {
  const bytes = parts.flatMap((part) => [2, ...encoder.encode(part), 0]);
  return new Uint8Array(bytes);
}

/** Overwrites the stored values under `keys` (made by kvKey) with bytes no V8 deserializer takes. */
export function damageValues(dataDir: string, keys: Uint8Array[]): void {
  const db = new DatabaseSync(join(dataDir, "state.kv"));
  try {
    for (const key of keys) {
      const changed = db.prepare("UPDATE kv SET v = ?, v_encoding = 1 WHERE k = ?")
        .run(new Uint8Array([0xff, 0x00, 0xff, 0x13]), key);
      assert.equal(changed.changes, 1, "the row exists");
    }
  } finally {
    db.close();
  }
}

/** Overwrites the root page of KV's table with garbage: SQLite itself cannot read it. */
export async function damageKvTable(dataDir: string): Promise<void> {
  const path = join(dataDir, "state.kv");
  const db = new DatabaseSync(path);
  let page: number;
  let pageSize: number;
  try {
    page = Number(
      db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'kv'").get()!.rootpage,
    );
    pageSize = Number(db.prepare("PRAGMA page_size").get()!.page_size);
  } finally {
    db.close();
  }
  const file = await Deno.open(path, { write: true });
  try {
    await file.seek((page - 1) * pageSize, Deno.SeekMode.Start);
    await file.write(new Uint8Array(pageSize).fill(0x41));
  } finally {
    file.close();
  }
}

/**
 * Overwrites every value stored as exactly `marker` (bytes) with bytes no V8 deserializer takes:
 * for keys kvKey cannot spell (a part with a NUL, or not a string).
 */
export function damageMarked(dataDir: string, marker: Uint8Array): void {
  const db = new DatabaseSync(join(dataDir, "state.kv"));
  try {
    const changed = db.prepare("UPDATE kv SET v = ?, v_encoding = 1 WHERE v = ?")
      .run(new Uint8Array([0xff, 0x00, 0xff, 0x13]), marker);
    assert.ok(Number(changed.changes) > 0, "a row holds the marker");
  } finally {
    db.close();
  }
}
