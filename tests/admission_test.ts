import assert from "node:assert/strict";
import { AdmissionPool, Busy, type Permit } from "../lib/util/admission.ts";
import { ApiError } from "../lib/util/errors.ts";

/** A permit granted at once (not a promise, not Busy). */
function held(outcome: ReturnType<AdmissionPool["admit"]>): Permit {
  assert.ok(!(outcome instanceof Promise) && !(outcome instanceof Busy), "granted at once");
  return outcome;
}

Deno.test("AdmissionPool: N run at once, M wait in order, then Busy", async () => {
  const pool = new AdmissionPool({ running: 2, waiting: 2, retryAfterSeconds: 7 });
  const a = held(pool.admit());
  held(pool.admit());
  assert.deepEqual(pool.state(), { running: 2, waiting: 0, maxRunning: 2, maxWaiting: 2 });
  const order: string[] = [];
  const c = pool.admit();
  const d = pool.admit();
  assert.ok(c instanceof Promise && d instanceof Promise);
  void c.then(() => order.push("c"));
  void d.then(() => order.push("d"));
  const busy = pool.admit();
  assert.ok(busy instanceof Busy);
  assert.equal(busy.retryAfterSeconds, 7);
  assert.deepEqual(busy.state, { running: 2, waiting: 2, maxRunning: 2, maxWaiting: 2 });
  a.release();
  a.release(); // a second release does nothing
  const cPermit = await c;
  assert.deepEqual(order, ["c"]);
  assert.deepEqual(pool.state().running, 2, "a freed place goes straight to the next in line");
  cPermit.release();
  await d;
  assert.deepEqual(order, ["c", "d"]);
  assert.equal(pool.state().waiting, 0);
});

Deno.test("AdmissionPool: Busy becomes EBUSY with its Retry-After", async () => {
  const pool = new AdmissionPool({
    running: 1,
    retryAfterSeconds: 10,
    busyMessage: (s) => `full (${s.running} of ${s.maxRunning})`,
  });
  using _first = held(pool.admit());
  await assert.rejects(pool.enter(), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EBUSY");
    assert.equal(error.message, "full (1 of 1)");
    assert.equal(new Headers(error.headers).get("retry-after"), "10");
    return true;
  });
});

Deno.test("AdmissionPool: a waiter whose signal aborts leaves the line", async () => {
  const pool = new AdmissionPool({ running: 1, waiting: 1 });
  const first = held(pool.admit());
  const controller = new AbortController();
  const waiting = pool.admit(controller.signal);
  assert.ok(waiting instanceof Promise);
  controller.abort(new Error("gave up"));
  await assert.rejects(waiting, /gave up/);
  assert.equal(pool.state().waiting, 0);
  first.release();
  assert.equal(pool.state().running, 0, "nobody was handed the place");
  await assert.rejects(Promise.resolve(pool.admit(AbortSignal.abort(new Error("early")))), /early/);
});

Deno.test("AdmissionPool: close() refuses the line and later callers, then drains", async () => {
  const pool = new AdmissionPool({
    running: 1,
    waiting: 4,
    closedError: () => new ApiError("EBROWSER", "closing"),
  });
  const first = held(pool.admit());
  const waiting = pool.admit();
  let closed = false;
  const closing = pool.close().then(() => closed = true);
  await assert.rejects(Promise.resolve(waiting), /closing/);
  await assert.rejects(Promise.resolve(pool.admit()), /closing/);
  await Promise.resolve();
  assert.equal(closed, false, "close() waits for the place still held");
  first.release();
  await closing;
  assert.equal(closed, true);
  assert.equal(pool.state().running, 0);
});

Deno.test("AdmissionPool: settled() resolves once every place is released", async () => {
  const pool = new AdmissionPool({ running: 2, waiting: 1 });
  await pool.settled();
  const a = held(pool.admit());
  const b = held(pool.admit());
  const c = pool.admit();
  assert.ok(c instanceof Promise);
  let settled = false;
  const done = pool.settled().then(() => settled = true);
  a.release();
  const cPermit = await c;
  b.release();
  await Promise.resolve();
  assert.equal(settled, false);
  cPermit.release();
  await done;
  assert.equal(settled, true);
});
