import assert from "node:assert/strict";
import { abortable, Deadline, settlesWithin } from "../lib/util/deadline.ts";
import { ApiError } from "../lib/util/errors.ts";

const never = new Promise<never>(() => {});
const timeout = () => new ApiError("ETIMEOUT", "own timeout");

Deno.test("deadline: an unused deadline arms no timer (the sanitizer would see it)", () => {
  const limit = new Deadline({ timeoutMs: 60_000, error: timeout });
  assert.deepEqual(limit.reason, null);
  assert.ok(limit.remaining() > 59_000);
});

Deno.test("deadline: the time left is counted from startedAt, and ends with its own error", async () => {
  using limit = new Deadline({
    timeoutMs: 1000,
    startedAt: performance.now() - 5000,
    error: timeout,
  });
  assert.deepEqual(limit.remaining(), 1); // never 0: puppeteer reads 0 as "no timeout"
  const error = await limit.run(never).catch((e) => e);
  assert.ok(error instanceof ApiError && error.message === "own timeout");
  assert.equal(limit.signal.reason, error);
  assert.equal(limit.reason, error);
});

Deno.test("deadline: an outer ApiError is kept as the reason; any other outer reason is its own", async () => {
  const outer = new AbortController();
  const cause = new ApiError("ETIMEOUT", "the request took too long");
  using kept = new Deadline({ timeoutMs: 60_000, error: timeout, signal: outer.signal });
  const pending = kept.run(never);
  outer.abort(cause);
  assert.equal(await pending.catch((e) => e), cause);

  const other = new AbortController();
  other.abort(new Error("unrelated"));
  using own = new Deadline({ timeoutMs: 60_000, error: timeout, signal: other.signal });
  const error = await own.run(never).catch((e) => e);
  assert.ok(error instanceof ApiError && error.message === "own timeout");
});

Deno.test("deadline: fail() ends every pending and later run() with its error, once", async () => {
  using limit = new Deadline({ timeoutMs: 60_000, error: timeout });
  const pending = limit.run(never);
  const crash = new ApiError("EBROWSER", "crashed");
  limit.fail(crash);
  limit.fail(new Error("later"));
  assert.equal(await pending.catch((e) => e), crash);
  assert.equal(await limit.run(Promise.resolve(1)).catch((e) => e), crash);
  assert.ok(limit.signal.aborted);
});

Deno.test("deadline: run() settles with the work when it wins; dispose drops timer and listener", async () => {
  const outer = new AbortController();
  const limit = new Deadline({ timeoutMs: 60_000, error: timeout, signal: outer.signal });
  assert.deepEqual(await limit.run(Promise.resolve("done")), "done");
  limit[Symbol.dispose]();
  outer.abort(new ApiError("ETIMEOUT", "after"));
  assert.deepEqual(limit.reason, null); // the listener is gone
  assert.deepEqual(await limit.run(Promise.resolve(2)), 2); // and no new timer is armed
});

Deno.test("abortable: an aborted signal rejects at once with its reason; a late rejection is handled", async () => {
  const controller = new AbortController();
  const reason = new ApiError("ETIMEOUT", "gone");
  controller.abort(reason);
  const late = Promise.reject(new Error("late"));
  assert.equal(await abortable(late, controller.signal).catch((e) => e), reason);
  assert.deepEqual(await abortable(Promise.resolve(3)), 3);
});

Deno.test("settlesWithin: true when the promise fulfils in time, false when it rejects or hangs", async () => {
  assert.deepEqual(await settlesWithin(Promise.resolve(), 60_000), true);
  assert.deepEqual(await settlesWithin(Promise.reject(new Error("no")), 60_000), false);
  assert.deepEqual(await settlesWithin(never, 0), false);
});
