/** The test pool's worker program: tasks that answer, spin, hang, allocate or end the thread. */
import process from "node:process";
import { type PoolJob, serveJobs } from "../../lib/util/worker_pool.ts";

export type TestTask =
  | { kind: "echo"; value: string }
  /** Spins until its job's cancel flag is raised (as a Budget does), then answers "cancelled". */
  | { kind: "spin" }
  /** Spins forever, never reading its flag: a thread stuck in one step. */
  | { kind: "stuck" }
  /** Holds `mb` megabytes of small objects, then answers how many it made. */
  | { kind: "allocate"; mb: number }
  | { kind: "exit" };

serveJobs(({ task, cancel }: PoolJob<TestTask>): string => {
  const flag = new Int32Array(cancel);
  switch (task.kind) {
    case "echo":
      return task.value;
    case "spin":
      while (Atomics.load(flag, 0) === 0);
      return "cancelled";
    case "stuck":
      for (;;);
    case "allocate": {
      // About 100 bytes an object (object, array, number).
      const held: { values: number[] }[] = [];
      for (let i = 0; i < task.mb * 10_000; i++) held.push({ values: [i, i + 1] });
      return `allocated ${held.length}`;
    }
    case "exit":
      process.exit(3);
  }
});
