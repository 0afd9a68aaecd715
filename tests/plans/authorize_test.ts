import assert from "node:assert/strict";
import { ApiError, isApiError } from "../../lib/util/errors.ts";
import { authorize, type AuthorizeOptions } from "../../lib/plans/authorize.ts";
import { createKey } from "../../lib/plans/keys.ts";
import { signedQuery } from "../../lib/plans/sign.ts";
import { openStore } from "../../lib/store/mod.ts";
import type { Store } from "../../lib/store/types.ts";
import { startRedis } from "../store/_redis.ts";
import { tempStore } from "../store/_temp_store.ts";

// One minute before a UTC midnight. Stores expire counters on the real clock, so the pinned
// time lies ahead of it: the day after tomorrow, 23:59:00.
const DAY = 86_400_000;
const MIDNIGHT = Math.floor(Date.now() / DAY) * DAY + 3 * DAY;
const NOW = MIDNIGHT - 60_000;
const RESET = String(MIDNIGHT / 1000);

function options(store: Store, overrides: Partial<AuthorizeOptions>): AuthorizeOptions {
  return {
    plan: "free",
    apiKey: null,
    query: new URLSearchParams("url=https%3A%2F%2Fexample.com"),
    ip: "198.51.100.7",
    store,
    config: { freeDailyLimit: 3 },
    now: NOW,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => null, (e) => e);
  assert.ok(isApiError(error), `expected an ApiError, got ${error}`);
  return error;
}

Deno.test("authorize() on free counts per IP per UTC day with rate-limit headers", async (t) => {
  await using store = await tempStore();
  await t.step("headers on the first request", async () => {
    const result = await authorize(options(store, {}));
    assert.deepEqual(result, {
      key: null,
      via: null,
      headers: {
        "x-rate-limit-limit": "3",
        "x-rate-limit-remaining": "2",
        "x-rate-limit-reset": RESET,
        "ratelimit-policy": '"daily";q=3;w=86400',
        "ratelimit": '"daily";r=2;t=60',
      },
    });
  });
  await t.step("ERATE with Retry-After once the limit is reached", async () => {
    await authorize(options(store, {}));
    const third = await authorize(options(store, {}));
    assert.equal(third.headers["x-rate-limit-remaining"], "0");
    const error = await failure(authorize(options(store, {})));
    assert.equal(error.code, "ERATE");
    assert.equal(error.status, 429);
    assert.equal(error.headers["retry-after"], "60");
    assert.equal(error.headers["x-rate-limit-remaining"], "0");
    assert.ok(error.message.includes(`daily limit of 3 requests`), error.message);
    assert.ok(error.message.includes(new Date(MIDNIGHT).toISOString()), error.message);
  });
  await t.step("another IP has its own budget", async () => {
    const other = await authorize(options(store, { ip: "198.51.100.8" }));
    assert.equal(other.headers["x-rate-limit-remaining"], "2");
  });
  await t.step("the budget resets at 00:00 UTC", async () => {
    const next = await authorize(options(store, { now: NOW + 60_000 }));
    assert.equal(next.headers["x-rate-limit-remaining"], "2");
    assert.equal(next.headers["x-rate-limit-reset"], String((MIDNIGHT + DAY) / 1000));
  });
  await t.step("IPv6 addresses in one /64 share a budget", async () => {
    await authorize(options(store, { ip: "2001:db8:0:1::a" }));
    await authorize(options(store, { ip: "2001:db8:0:1:ffff::b" }));
    const third = await authorize(options(store, { ip: "2001:db8:0:1:1:2:3:4" }));
    assert.equal(third.headers["x-rate-limit-remaining"], "0");
    const neighbour = await authorize(options(store, { ip: "2001:db8:0:2::a" }));
    assert.equal(neighbour.headers["x-rate-limit-remaining"], "2");
  });
});

Deno.test("authorize() on free refuses an API key with EPRO, and still counts it", async () => {
  await using store = await tempStore();
  const error = await failure(authorize(options(store, { apiKey: "lp_anything" })));
  assert.equal(error.code, "EPRO");
  assert.equal(error.status, 400);
  assert.equal(error.headers["x-rate-limit-remaining"], "2");
});

Deno.test("authorize() on pro needs a valid key: EAUTH otherwise, never a 500", async (t) => {
  await using store = await tempStore();
  const { key, record } = await createKey(store, { name: "site" });
  const pro = (apiKey: string | null) => authorize(options(store, { plan: "pro", apiKey }));
  await t.step("valid key", async () => {
    assert.deepEqual(await pro(key), {
      headers: {},
      key: { id: record.id, name: "site" },
      via: "key",
    });
  });
  for (
    const [label, apiKey] of [
      ["missing", null],
      ["empty", ""],
      ["wrong length", key.slice(0, 20)],
      ["very long", "x".repeat(10_000)],
      ["unknown", "lp_" + "B".repeat(43)],
    ] as const
  ) {
    await t.step(`${label} key -> EAUTH`, async () => {
      const error = await failure(pro(apiKey));
      assert.equal(error.code, "EAUTH");
      assert.equal(error.status, 401);
      assert.ok(apiKey === null || !error.message.includes(apiKey || "\0"), "key echoed");
    });
  }
  await t.step("revoked key -> EAUTH", async () => {
    await store.revokeKey("site");
    assert.equal((await failure(pro(key))).code, "EAUTH");
  });
});

Deno.test("authorize() on pro applies a key's daily quota", async () => {
  await using store = await tempStore();
  const { key } = await createKey(store, { name: "metered", dailyLimit: 2 });
  const pro = () => authorize(options(store, { plan: "pro", apiKey: key }));
  assert.equal((await pro()).headers["ratelimit-policy"], '"daily";q=2;w=86400');
  assert.equal((await pro()).headers["x-rate-limit-remaining"], "0");
  const error = await failure(pro());
  assert.equal(error.code, "ERATE");
  assert.equal(error.headers["retry-after"], "60");
});

Deno.test("authorize() on pro accepts a signature for exactly the signed query", async (t) => {
  await using store = await tempStore();
  const { record } = await createKey(store, { name: "embeds" });
  const query = "url=https%3A%2F%2Fexample.com&screenshot&embed=screenshot.url";
  const signed = new URLSearchParams(signedQuery(record, query));
  const pro = (q: URLSearchParams) => authorize(options(store, { plan: "pro", query: q }));
  await t.step("signed query", async () => {
    const result = await pro(signed);
    assert.deepEqual(result.key, { id: record.id, name: "embeds" });
    assert.equal(result.via, "signature");
  });
  await t.step("same pairs in another order", async () => {
    const reordered = new URLSearchParams([...signed].reverse());
    assert.equal((await pro(reordered)).via, "signature");
  });
  await t.step("a changed or added parameter -> EAUTH", async () => {
    const changed = new URLSearchParams(signed);
    changed.set("url", "https://example.org");
    assert.equal((await failure(pro(changed))).code, "EAUTH");
    const added = new URLSearchParams(signed);
    added.append("force", "true");
    assert.equal((await failure(pro(added))).code, "EAUTH");
  });
  await t.step("malformed or unknown-key signatures -> EAUTH", async () => {
    for (const value of ["", "x", `nokey.${"A".repeat(43)}`, `${record.id}.${"A".repeat(43)}`]) {
      const q = new URLSearchParams(signed);
      q.set("signature", value);
      assert.equal((await failure(pro(q))).code, "EAUTH", value);
    }
  });
  await t.step("a revoked key's signatures stop working", async () => {
    await store.revokeKey("embeds");
    assert.equal((await failure(pro(signed))).code, "EAUTH");
  });
});

Deno.test("authorize() is exact across two instances on one Redis: 200 requests, limit 50", async () => {
  await using redis = await startRedis();
  const config = { redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 };
  const stores = await Promise.all([openStore(config), openStore(config)]);
  try {
    const results = await Promise.allSettled(
      Array.from(
        { length: 200 },
        (_, i) => authorize(options(stores[i % 2]!, { config: { freeDailyLimit: 50 } })),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled").length;
    const limited = results.filter((r) =>
      r.status === "rejected" && isApiError(r.reason) && r.reason.code === "ERATE"
    ).length;
    assert.equal(ok, 50);
    assert.equal(limited, 150);
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});
