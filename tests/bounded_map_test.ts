import assert from "node:assert/strict";
import { BoundedMap } from "../lib/util/bounded_map.ts";

Deno.test("BoundedMap keeps at most max entries, least recently used out first", () => {
  const map = new BoundedMap<string, number>(2);
  map.set("a", 1).set("b", 2);
  assert.equal(map.get("a"), 1); // a is now the most recently used
  map.set("c", 3);
  assert.equal(map.size, 2);
  assert.equal(map.peek("b"), undefined, "b was the least recently used");
  assert.equal(map.peek("a"), 1);
  assert.equal(map.peek("c"), 3);
  map.peek("a"); // peeking does not refresh: a is still older than c
  map.set("d", 4);
  assert.equal(map.peek("a"), undefined);
  assert.equal(map.delete("c"), true);
  assert.equal(map.size, 1);
  map.clear();
  assert.equal(map.size, 0);
  assert.throws(() => new BoundedMap(0), RangeError);
});

Deno.test("BoundedMap with maxKeyLength never keeps a longer string key", () => {
  const map = new BoundedMap<string, number>(4, { maxKeyLength: 3 });
  map.set("abc", 1).set("abcd", 2);
  assert.equal(map.size, 1);
  assert.equal(map.get("abc"), 1);
  assert.equal(map.get("abcd"), undefined);
  // A long key neither evicts a kept one nor replaces it.
  const full = new BoundedMap<string, number>(1, { maxKeyLength: 3 });
  full.set("a", 1).set("a".repeat(10), 2);
  assert.equal(full.get("a"), 1);
});
