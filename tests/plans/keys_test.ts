import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { constantTimeEqual } from "../../lib/plans/constant_time.ts";
import { createKey, findActiveKey, hashKey, isWellFormedKey } from "../../lib/plans/keys.ts";
import { tempStore } from "../store/_temp_store.ts";

Deno.test("createKey() stores only the SHA-256 of a new lp_ key", async () => {
  await using store = await tempStore();
  const { key, record } = await createKey(store, { name: "site", dailyLimit: 100 });
  assert.match(key, /^lp_[A-Za-z0-9_-]{43}$/);
  assert.equal(record.hash, createHash("sha256").update(key).digest("hex"));
  assert.equal(record.dailyLimit, 100);
  assert.match(record.id, /^[A-Za-z0-9_-]{12}$/);
  assert.match(record.signingSecret, /^[A-Za-z0-9_-]{43}$/);
  const stored = JSON.stringify(await store.listKeys());
  assert.ok(!stored.includes(key.slice(3)), "the key itself must never be stored");
});

Deno.test("createKey() rejects bad names and limits with clear messages", async () => {
  await using store = await tempStore();
  await assert.rejects(createKey(store, { name: "a b" }), /Invalid key name "a b"/);
  await assert.rejects(createKey(store, { name: "" }), /Invalid key name ""/);
  await assert.rejects(createKey(store, { name: "ok", dailyLimit: 0 }), /Invalid daily limit "0"/);
  await assert.rejects(createKey(store, { name: "ok", dailyLimit: 1.5 }), /Invalid daily limit/);
  await createKey(store, { name: "ok" });
  await assert.rejects(createKey(store, { name: "ok" }), /already exists/);
});

Deno.test("findActiveKey() finds a valid key and refuses malformed, unknown and revoked ones", async (t) => {
  await using store = await tempStore();
  const { key, record } = await createKey(store, { name: "site" });
  await t.step("valid", async () => {
    assert.deepEqual(await findActiveKey(store, key), record);
  });
  await t.step("wrong length or alphabet", async () => {
    assert.equal(await findActiveKey(store, key.slice(0, -1)), null);
    assert.equal(await findActiveKey(store, key + "A"), null);
    assert.equal(await findActiveKey(store, ""), null);
    assert.equal(await findActiveKey(store, "lp_" + "!".repeat(43)), null);
    assert.equal(isWellFormedKey(key), true);
  });
  await t.step("unknown", async () => {
    const other = "lp_" + "A".repeat(43);
    assert.equal(await findActiveKey(store, other), null);
    assert.notEqual(hashKey(other), record.hash);
  });
  await t.step("revoked", async () => {
    assert.equal(await store.revokeKey("site"), true);
    assert.equal(await findActiveKey(store, key), null);
  });
});

Deno.test("constantTimeEqual() compares bytes and strings of any length", () => {
  assert.equal(constantTimeEqual("abc", "abc"), true);
  assert.equal(constantTimeEqual("abc", "abd"), false);
  assert.equal(constantTimeEqual("abc", "ab"), false);
  assert.equal(constantTimeEqual("", ""), true);
  assert.equal(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])), true);
  assert.equal(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0])), false);
  assert.equal(constantTimeEqual(new Uint8Array([0]), new Uint8Array([])), false);
});
