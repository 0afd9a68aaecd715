/**
 * WorkerPool, the mechanics the DOM workers and the document workers share, on a test worker
 * program: EBUSY past its line, a cancelled job's thread kept, a stuck thread replaced only past
 * its deadline and grace, a slow-loading thread not taken for a stuck one, close() draining, and
 * the heap cap ending one job cleanly while the next runs.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { setQuiet } from "../../lib/util/log.ts";
import { GRACE_MS, type JobOutcome, WorkerPool } from "../../lib/util/worker_pool.ts";
import type { TestTask } from "./_worker.ts";

setQuiet(true);

const WORKER = new URL("./_worker.ts", import.meta.url);

function testPool(
  options: { running?: number; waiting?: number; heapMb?: number; module?: URL } = {},
): WorkerPool<TestTask, string> {
  return new WorkerPool<TestTask, string>({
    module: options.module ?? WORKER,
    name: "test worker",
    admission: {
      running: options.running ?? 1,
      waiting: options.waiting ?? 0,
      retryAfterSeconds: 5,
      busyMessage: (s) => `test workers full (${s.maxRunning} running, ${s.waiting} waiting)`,
      closedError: () => new ApiError("EBUSY", "test workers closed"),
    },
    heapMb: options.heapMb ?? 64,
    jobTimeoutMs: 60_000,
  });
}

const reply = (value: string): JobOutcome<string> => ({ ended: "reply", reply: value });

Deno.test("WorkerPool: EBUSY with Retry-After past its line; a cancelled job's thread is kept", async () => {
  await using pool = testPool({ running: 1, waiting: 1 });
  const first = new AbortController();
  const second = new AbortController();
  const running = pool.run({ kind: "spin" }, { signal: first.signal });
  const waiting = pool.run({ kind: "spin" }, { signal: second.signal });
  running.catch(() => {});
  waiting.catch(() => {});
  assert.deepEqual(pool.stats(), { busy: 1, queued: 1, workers: 1, replaced: 0 });
  await assert.rejects(pool.run({ kind: "echo", value: "x" }), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EBUSY");
    assert.equal(error.status, 503);
    assert.deepEqual(error.headers, { "retry-after": "5" });
    assert.equal(error.message, "test workers full (1 running, 1 waiting)");
    return true;
  });
  second.abort(new Error("second gave up"));
  await assert.rejects(waiting, /second gave up/);
  first.abort(new Error("first gave up"));
  await assert.rejects(running, /first gave up/);
  // The thread reads its flag, stops and answers: kept for the next job, not replaced.
  await pool.settled();
  assert.deepEqual(pool.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  assert.deepEqual(await pool.run({ kind: "echo", value: "again" }), reply("again"));
  assert.equal(pool.stats().workers, 1, "the same thread served it");
});

Deno.test("WorkerPool: a stuck thread is answered at the deadline, replaced past its grace", async () => {
  await using pool = testPool();
  assert.deepEqual(await pool.run({ kind: "echo", value: "warm" }), reply("warm"));
  const endsAt = Date.now() + 300;
  const outcome = await pool.run({ kind: "stuck" }, { endsAt });
  assert.deepEqual(outcome, { ended: "deadline" });
  assert.ok(Date.now() < endsAt + GRACE_MS, "the caller does not wait for the grace");
  assert.equal(pool.stats().busy, 1, "its thread still holds the place");
  await pool.settled();
  assert.ok(Date.now() >= endsAt + GRACE_MS, "replaced only once its grace is over");
  assert.deepEqual(pool.stats(), { busy: 0, queued: 0, workers: 0, replaced: 1 });
  assert.deepEqual(await pool.run({ kind: "echo", value: "next" }), reply("next"));
  assert.equal(pool.stats().workers, 1);
});

Deno.test("WorkerPool: a thread still loading its program is not taken for a stuck one", async () => {
  // It loads for 3 s, longer than the job's deadline and grace together.
  await using pool = testPool({ module: new URL("./_slow_worker.ts", import.meta.url) });
  const endsAt = Date.now() + 200;
  assert.deepEqual(await pool.run({ kind: "spin" }, { endsAt }), { ended: "deadline" });
  await pool.settled();
  // Once loaded it read its raised flag and answered: kept.
  assert.deepEqual(pool.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  assert.deepEqual(await pool.run({ kind: "echo", value: "loaded" }), reply("loaded"));
});

Deno.test("WorkerPool: a thread that exits is a stopped outcome and is replaced", async () => {
  await using pool = testPool();
  const outcome = await pool.run({ kind: "exit" });
  assert.equal(outcome.ended, "stopped");
  await pool.settled();
  assert.deepEqual(await pool.run({ kind: "echo", value: "after" }), reply("after"));
});

Deno.test("WorkerPool: close() refuses the line, stops running jobs and waits for them", async () => {
  const pool = testPool({ running: 1, waiting: 1 });
  const running = pool.run({ kind: "spin" });
  const waiting = pool.run({ kind: "echo", value: "never" });
  waiting.catch(() => {});
  await pool.close();
  // Closing raised the running job's flag: it stopped by itself, before close() resolved.
  assert.deepEqual(await running, reply("cancelled"));
  await assert.rejects(waiting, /test workers closed/);
  await assert.rejects(pool.run({ kind: "echo", value: "late" }), /test workers closed/);
  assert.equal(pool.stats().busy, 0);
});

Deno.test("WorkerPool: a job past the heap cap ends alone; the next job runs", async () => {
  // 64 MB of objects: fine under a 256 MB cap, past a 16 MB one.
  const task: TestTask = { kind: "allocate", mb: 64 };
  {
    await using roomy = testPool({ heapMb: 256 });
    assert.deepEqual(await roomy.run(task), reply("allocated 640000"));
  }
  await using pool = testPool({ heapMb: 16 });
  const endsAt = Date.now() + 3000;
  const outcome = await pool.run(task, { endsAt });
  // Deno 2.9 stops a thread at its cap without a word (no error, no exit): the deadline ends
  // it; a runtime that reports the thread's end gives "stopped" sooner.
  assert.notEqual(outcome.ended, "reply", JSON.stringify(outcome));
  await pool.settled();
  assert.deepEqual(await pool.run({ kind: "echo", value: "next" }), reply("next"));
  assert.equal(pool.stats().busy, 0);
});
