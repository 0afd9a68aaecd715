import assert from "node:assert/strict";
import { decodeEntry, encodeEntry, type StoredEntry } from "../../lib/cache/entry.ts";

const stored: StoredEntry = {
  entry: {
    payload: '{"status":"success"}',
    fetchMode: "prerender",
    fetchTimeMs: 12.5,
    createdAt: 1,
  },
  error: null,
  createdAt: 1,
  ttlMs: 60_000,
};

Deno.test("a cache entry keeps the payload with its fetch mode and time as fields", () => {
  const bytes = encodeEntry(stored);
  const length = new DataView(bytes.buffer).getUint32(0);
  const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  assert.equal(meta.v, 2);
  assert.equal(meta.fetchMode, "prerender");
  assert.equal(meta.fetchTimeMs, 12.5);
  assert.equal(meta.headers, undefined, "no fake HTTP headers");
  assert.deepEqual(decodeEntry(bytes), stored);
});

/** An entry as version 1 wrote it: the fetch mode and time as x-fetch-* headers. */
function versionOne(headers: Record<string, string>, body: string): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify({
    v: 1,
    status: 200,
    headers,
    createdAt: 1,
    ttlMs: 60_000,
    text: true,
    error: null,
  }));
  const payload = new TextEncoder().encode(body);
  const bytes = new Uint8Array(4 + head.length + payload.length);
  new DataView(bytes.buffer).setUint32(0, head.length);
  bytes.set(head, 4);
  bytes.set(payload, 4 + head.length);
  return bytes;
}

Deno.test("version 1 entries (fetch mode and time as headers) are still read", () => {
  const old = versionOne(
    { "x-fetch-mode": "prerender", "x-fetch-time": "12.5" },
    '{"status":"success"}',
  );
  assert.deepEqual(decodeEntry(old), { ...stored, unsized: true }, "no recorded length");
  const bare = decodeEntry(versionOne({}, "{}"));
  assert.equal(bare?.entry?.fetchMode, "skipped");
  assert.equal(bare?.entry?.fetchTimeMs, 0);
});

Deno.test("an entry of an unknown version is a miss", () => {
  const bytes = encodeEntry(stored);
  const length = new DataView(bytes.buffer).getUint32(0);
  const head = new TextDecoder().decode(bytes.subarray(4, 4 + length)).replace('"v":2', '"v":9');
  const future = new Uint8Array([
    ...bytes.subarray(0, 4),
    ...new TextEncoder().encode(head),
    ...bytes.subarray(4 + length),
  ]);
  assert.equal(decodeEntry(future), null);
});

Deno.test("an entry cut short, or with a meta of another shape, is a miss", () => {
  const bytes = encodeEntry(stored);
  assert.equal(decodeEntry(bytes.subarray(0, bytes.length - 1)), null, "payload cut short");
  assert.equal(decodeEntry(bytes.subarray(0, 10)), null, "meta cut short");
  const length = new DataView(bytes.buffer).getUint32(0);
  const head = new TextDecoder().decode(bytes.subarray(4, 4 + length));
  const changes: [string, string][] = [
    ['"ttlMs":60000', '"ttlMs":"60000"'],
    ['"error":null', '"error":"x"'],
  ];
  for (const [from, to] of changes) {
    const changed = new TextEncoder().encode(head.replace(from, to));
    const other = new Uint8Array(4 + changed.length + (bytes.length - 4 - length));
    new DataView(other.buffer).setUint32(0, changed.length);
    other.set(changed, 4);
    other.set(bytes.subarray(4 + length), 4 + changed.length);
    assert.equal(decodeEntry(other), null, to);
  }
});
