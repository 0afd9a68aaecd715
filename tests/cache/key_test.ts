import assert from "node:assert/strict";
import { cacheKey, isCredentialHeader } from "../../lib/cache/key.ts";

const secret = new Uint8Array(32).fill(1);
const base = {
  url: "https://Example.com:443/a?x=1",
  params: [["screenshot", "true"]] as const,
  secret,
};

Deno.test("cacheKey() is stable across URL spellings and parameter order", () => {
  const a = cacheKey(base);
  assert.match(a.key, /^[0-9a-f]{64}$/);
  assert.equal(a.private, false);
  assert.equal(cacheKey({ ...base, url: "https://example.com/a?x=1" }).key, a.key);
  const two = cacheKey({ ...base, params: [["a", "1"], ["b", "2"]] });
  assert.equal(cacheKey({ ...base, params: [["b", "2"], ["a", "1"]] }).key, two.key);
});

Deno.test("cacheKey() changes with anything that changes the answer", () => {
  const a = cacheKey(base).key;
  assert.notEqual(cacheKey({ ...base, url: "https://example.com/a?x=2" }).key, a);
  assert.notEqual(cacheKey({ ...base, params: [["screenshot", "false"]] }).key, a);
  assert.notEqual(cacheKey({ ...base, params: [] }).key, a);
});

Deno.test("cacheKey() folds credentials in as an HMAC under the server secret", async (t) => {
  const plain = cacheKey(base);
  const withCookie = cacheKey({ ...base, credentials: { Cookie: "session=abc" } });
  await t.step("credentialed requests are private and keyed apart", () => {
    assert.equal(withCookie.private, true);
    assert.notEqual(withCookie.key, plain.key);
    assert.notEqual(
      cacheKey({ ...base, credentials: { cookie: "session=xyz" } }).key,
      withCookie.key,
    );
  });
  await t.step("header name case does not matter", () => {
    assert.equal(cacheKey({ ...base, credentials: { cookie: "session=abc" } }).key, withCookie.key);
  });
  await t.step("another server secret gives another key", () => {
    const other = cacheKey({
      ...base,
      credentials: { cookie: "session=abc" },
      secret: new Uint8Array(32),
    });
    assert.notEqual(other.key, withCookie.key);
  });
  await t.step("URL userinfo is a credential too", () => {
    const info = cacheKey({ ...base, url: "https://user:pw@example.com/a?x=1" });
    assert.equal(info.private, true);
    assert.notEqual(info.key, plain.key);
    assert.notEqual(cacheKey({ ...base, url: "https://user:pw2@example.com/a?x=1" }).key, info.key);
  });
  await t.step("user-agent and accept-language are not credentials", () => {
    assert.equal(isCredentialHeader("User-Agent"), false);
    assert.equal(isCredentialHeader("accept-language"), false);
    assert.equal(isCredentialHeader("authorization"), true);
    assert.deepEqual(cacheKey({ ...base, credentials: { "user-agent": "x" } }), plain);
  });
});
