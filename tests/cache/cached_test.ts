import assert from "node:assert/strict";
import { cached, type CachedOptions } from "../../lib/cache/cached.ts";
import type { Entry } from "../../lib/cache/entry.ts";
import { ApiError, isApiError } from "../../lib/util/errors.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { openStore } from "../../lib/store/mod.ts";
import type { Store } from "../../lib/store/types.ts";
import { startRedis } from "../store/_redis.ts";
import { tempStore } from "../store/_temp_store.ts";

setQuiet(true);

/** A computation that counts its runs and answers with the run number. */
function counter(delayMs = 20) {
  const state = { runs: 0 };
  const compute = async (): Promise<Omit<Entry, "createdAt">> => {
    state.runs++;
    const run = state.runs;
    await new Promise((r) => setTimeout(r, delayMs));
    return { payload: `{"run":${run}}`, fetchMode: "fetch", fetchTimeMs: 1 };
  };
  return { state, compute };
}

/**
 * `promise`, or a failure if it has not settled in 10 s: turns "waited for a refresh that never
 * ends" into a failed test instead of a hung run (the answer itself takes milliseconds).
 */
async function unlessHung<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("waited for the blocked refresh")), 10_000);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

function opts(store: Store, overrides: Partial<CachedOptions>): CachedOptions {
  return { store, key: "a".repeat(64), ttlMs: 60_000, compute: counter().compute, ...overrides };
}

Deno.test("cached() answers MISS, then HIT from the store, then BYPASS with force", async () => {
  await using store = await tempStore();
  const { state, compute } = counter();
  const first = await cached(opts(store, { compute }));
  assert.equal(first.status, "MISS");
  assert.equal(first.ttlLeftMs, 60_000);
  assert.equal(first.entry.payload, '{"run":1}');
  assert.ok(Math.abs(first.entry.createdAt - Date.now()) < 1000);

  const second = await cached(opts(store, { compute }));
  assert.equal(second.status, "HIT");
  assert.deepEqual(second.entry, first.entry);
  assert.ok(second.ttlLeftMs <= 60_000 && second.ttlLeftMs > 59_000, String(second.ttlLeftMs));

  const forced = await cached(opts(store, { compute, force: true }));
  assert.equal(forced.status, "BYPASS");
  assert.equal(forced.entry.payload, '{"run":2}');
  assert.equal((await cached(opts(store, { compute }))).entry.payload, '{"run":2}');
  assert.equal(state.runs, 2);
});

Deno.test("cached() keeps bytes bodies as bytes", async () => {
  await using store = await tempStore();
  const body = new Uint8Array([0, 255, 1, 2]);
  const compute = () =>
    Promise.resolve({ payload: body, fetchMode: "skipped" as const, fetchTimeMs: 0 });
  await cached(opts(store, { compute }));
  const hit = await cached(opts(store, { compute }));
  assert.equal(hit.status, "HIT");
  assert.deepEqual(hit.entry.payload, body);
});

Deno.test("cached() computes once for identical concurrent requests", async () => {
  await using store = await tempStore();
  const { state, compute } = counter(50);
  const results = await Promise.all(
    Array.from({ length: 25 }, () => cached(opts(store, { compute }))),
  );
  assert.equal(state.runs, 1);
  assert.ok(results.every((r) => r.entry.payload === '{"run":1}'));
  const other = await cached(opts(store, { compute, key: "b".repeat(64) }));
  assert.equal(other.status, "MISS");
  assert.equal(state.runs, 2);
});

Deno.test("cached() treats entries older than this request's ttl as a MISS", async () => {
  await using store = await tempStore();
  const { state, compute } = counter(0);
  await cached(opts(store, { compute }));
  await new Promise((r) => setTimeout(r, 30));
  const shorter = await cached(opts(store, { compute, ttlMs: 20 }));
  assert.equal(shorter.status, "MISS");
  assert.equal(state.runs, 2);
});

Deno.test("cached() with staleTtl serves the copy and refreshes it in the background", async () => {
  await using store = await tempStore();
  const { state, compute } = counter(0);
  await cached(opts(store, { compute }));
  await new Promise((r) => setTimeout(r, 20));
  const young = await cached(opts(store, { compute, staleTtlMs: 10_000 }));
  assert.equal(young.status, "HIT");
  assert.equal(young.refresh, null);

  // The refresh cannot finish before release(): an answer that arrives first did not wait for it.
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const blocked = async () => {
    await gate;
    return await compute();
  };
  const stale = await unlessHung(cached(opts(store, { compute: blocked, staleTtlMs: 0 })));
  assert.equal(stale.status, "STALE");
  assert.equal(stale.entry.payload, '{"run":1}');
  const again = await unlessHung(cached(opts(store, { compute: blocked, staleTtlMs: 0 })));
  assert.equal(again.status, "STALE");
  assert.equal(state.runs, 1, "both answered while their refresh was still blocked");
  release();
  await Promise.all([stale.refresh, again.refresh]);
  assert.equal(state.runs, 2, "concurrent refreshes are single-flight too");
  const after = await cached(opts(store, { compute }));
  assert.equal(after.status, "HIT");
  assert.equal(after.entry.payload, '{"run":2}');
});

Deno.test("cached() remembers target-side errors for a minute and never others", async (t) => {
  await using store = await tempStore();
  await t.step("ETIMEOUT is cached and re-thrown with cache headers", async () => {
    let runs = 0;
    const compute = () => {
      runs++;
      return Promise.reject(
        new ApiError("ETIMEOUT", "The URL `https://slow.invalid/` took too long."),
      );
    };
    const key = "c".repeat(64);
    await assert.rejects(
      cached(opts(store, { key, compute })),
      (e) => isApiError(e) && e.code === "ETIMEOUT",
    );
    const error = await cached(opts(store, { key, compute })).then(() => null, (e) => e);
    assert.ok(isApiError(error));
    assert.equal(error.code, "ETIMEOUT");
    assert.equal(error.message, "The URL `https://slow.invalid/` took too long.");
    assert.equal(error.headers["x-cache-status"], "HIT");
    assert.ok(
      Number(error.headers["x-cache-ttl"]) <= 60_000 &&
        Number(error.headers["x-cache-ttl"]) > 59_000,
    );
    assert.equal(runs, 1);
  });
  await t.step("EINVALQUERY, EBROWSER and plain errors are not cached", async () => {
    for (
      const [i, failure] of [
        new ApiError("EINVALQUERY", "bad"),
        new ApiError("EBROWSER", "no browser"),
        new Error("boom"),
      ].entries()
    ) {
      let runs = 0;
      const compute = () => {
        runs++;
        return Promise.reject(failure);
      };
      const key = `d${i}`.padEnd(64, "0");
      await assert.rejects(cached(opts(store, { key, compute })));
      await assert.rejects(cached(opts(store, { key, compute })));
      assert.equal(runs, 2, failure.message);
    }
  });
});

Deno.test("cached() on Redis: a MISS on one instance is a HIT on the other", async () => {
  await using redis = await startRedis();
  const config = { redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 };
  const [one, two] = await Promise.all([openStore(config), openStore(config)]);
  try {
    const { state, compute } = counter(0);
    assert.equal((await cached(opts(one, { compute }))).status, "MISS");
    const hit = await cached(opts(two, { compute }));
    assert.equal(hit.status, "HIT");
    assert.equal(hit.entry.payload, '{"run":1}');
    assert.equal(state.runs, 1);
  } finally {
    await one.close();
    await two.close();
  }
});

Deno.test("cached() waits for its gate, reads meanwhile, and rejects with the gate's error", async (t) => {
  await using store = await tempStore();
  const { state, compute } = counter(0);
  await t.step("a failing gate: no answer, no computation", async () => {
    const gate = Promise.reject(new ApiError("ERATE", "limit"));
    await assert.rejects(
      cached(opts(store, { compute, gate })),
      (e) => isApiError(e) && e.code === "ERATE",
    );
    await assert.rejects(
      cached(
        opts(store, { compute, gate: Promise.reject(new ApiError("EAUTH", "no")), force: true }),
      ),
      (e) => isApiError(e) && e.code === "EAUTH",
    );
    assert.equal(state.runs, 0);
  });
  await t.step("the store read starts before the gate opens", async () => {
    await cached(opts(store, { compute }));
    let reads = 0;
    const counting = new Proxy(store, {
      get: (target, name) =>
        name === "getCache"
          ? (key: string) => (reads++, target.getCache(key))
          : (Reflect.get(target, name) as (...a: unknown[]) => unknown).bind(target),
    }) as Store;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => open = resolve);
    const pending = cached(opts(counting, { compute, gate }));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(reads, 1);
    open();
    assert.equal((await pending).status, "HIT");
  });
});
