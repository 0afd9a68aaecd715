import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { Buffer } from "node:buffer";
import {
  canonicalQuery,
  parseSignature,
  signatureFor,
  signedQuery,
  signQuery,
} from "../../lib/plans/sign.ts";

const record = { id: "abcDEF123_-x", signingSecret: Buffer.alloc(32, 7).toString("base64url") };

Deno.test("canonicalQuery() sorts pairs, re-encodes them and drops signature", () => {
  assert.equal(
    canonicalQuery("url=https%3A%2F%2Fa.test%2F%3Fq%3D1&screenshot&b=x+y&signature=zz&a=2&a=1"),
    "a=1&a=2&b=x%20y&screenshot=&url=https%3A%2F%2Fa.test%2F%3Fq%3D1",
  );
  assert.equal(canonicalQuery("?b=2&a=1"), canonicalQuery(new URLSearchParams("a=1&b=2")));
});

Deno.test("signQuery() is HMAC-SHA256 of the canonical query, base64url", () => {
  const query = "url=https%3A%2F%2Fexample.com&screenshot=true";
  const expected = createHmac("sha256", Buffer.alloc(32, 7))
    .update("screenshot=true&url=https%3A%2F%2Fexample.com")
    .digest("base64url");
  assert.equal(signQuery(record.signingSecret, query), expected);
  assert.notEqual(signQuery(record.signingSecret, query + "&embed=screenshot.url"), expected);
});

Deno.test("signedQuery() appends signature=<id>.<mac> and replaces an old one", () => {
  const query = "url=https%3A%2F%2Fexample.com&embed=screenshot.url";
  const signed = signedQuery(record, query);
  assert.equal(signed, `${query}&signature=${signatureFor(record, query)}`);
  assert.equal(signedQuery(record, `${query}&signature=old`), signed);
  const value = new URLSearchParams(signed).get("signature")!;
  assert.deepEqual(parseSignature(value), {
    keyId: record.id,
    mac: signQuery(record.signingSecret, query),
  });
  assert.equal(parseSignature("nodot"), null);
  assert.equal(parseSignature(`${record.id}.short`), null);
});
