import assert from "node:assert/strict";
import { isApiError } from "../../lib/errors.ts";
import { parseDuration, parseStaleTtl, parseTtl } from "../../lib/cache/ttl.ts";

const DAY = 86_400_000;

Deno.test("parseTtl() reads milliseconds and humanised durations", () => {
  assert.equal(parseTtl(null), DAY);
  assert.equal(parseTtl(""), DAY);
  assert.equal(parseTtl("1d"), DAY);
  assert.equal(parseTtl("1day"), DAY);
  assert.equal(parseTtl("2days"), 2 * DAY);
  assert.equal(parseTtl("90s"), 90_000);
  assert.equal(parseTtl("90secs"), 90_000);
  assert.equal(parseTtl("90seconds"), 90_000);
  assert.equal(parseTtl("2h"), 7_200_000);
  assert.equal(parseTtl("1 hour"), 3_600_000);
  assert.equal(parseTtl("1.5h"), 5_400_000);
  assert.equal(parseTtl("86400000"), DAY);
  assert.equal(parseTtl("min"), 60_000);
  assert.equal(parseTtl("max"), 31 * DAY);
  assert.equal(parseTtl("31d"), 31 * DAY);
  assert.equal(parseDuration("1w"), 7 * DAY);
});

Deno.test("parseTtl() rejects out-of-range and unreadable values with EINVALQUERY naming ttl", () => {
  for (const value of ["59s", "59999", "32d", "0", "abc", "1 fortnight", "-1d", "1d2h"]) {
    assert.throws(() => parseTtl(value), (error) => {
      assert.ok(isApiError(error));
      assert.equal(error.code, "EINVALQUERY");
      assert.equal(error.status, 400);
      assert.ok(error.message.includes("`ttl`") && error.message.includes(value), error.message);
      return true;
    }, value);
  }
});

Deno.test("parseStaleTtl() allows 0 up to ttl, false/absent means off", () => {
  assert.equal(parseStaleTtl(null, { ttlMs: DAY }), null);
  assert.equal(parseStaleTtl("false", { ttlMs: DAY }), null);
  assert.equal(parseStaleTtl("0", { ttlMs: DAY }), 0);
  assert.equal(parseStaleTtl("true", { ttlMs: DAY }), 0);
  assert.equal(parseStaleTtl("1h", { ttlMs: DAY }), 3_600_000);
  assert.equal(parseStaleTtl("1d", { ttlMs: DAY }), DAY);
  assert.throws(
    () => parseStaleTtl("2d", { ttlMs: DAY }),
    (e) => isApiError(e) && e.code === "EINVALQUERY" && e.message.includes("`staleTtl`"),
  );
  assert.throws(
    () => parseStaleTtl("soon", { ttlMs: DAY, name: "stale_ttl" }),
    (e) => isApiError(e) && e.message.includes("`stale_ttl` value `soon`"),
  );
});
