/** A page-work thread (see DomWorkers): one job at a time, each under its own budget. */
import { serveJobs } from "../../util/worker_pool.ts";
import { BudgetExceeded, withBudget } from "./budget.ts";
import { domWorkSync } from "./work.ts";
import type { WorkerJob, WorkerReply, WorkerTask } from "./workers.ts";
import { extract } from "../mod.ts";

function perform(task: WorkerTask) {
  return task.kind === "dom" ? domWorkSync(task.work) : extract(task.html, task.url, task.options);
}

serveJobs(({ task, endsAt, cancel }: WorkerJob): WorkerReply => {
  try {
    const budget = { endsAt, cancelled: new Int32Array(cancel) };
    return { ok: true, result: withBudget(budget, () => perform(task)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, overBudget: error instanceof BudgetExceeded, message };
  }
});
