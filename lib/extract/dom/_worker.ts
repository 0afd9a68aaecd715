/** A page-work thread (see DomWorkers): one job at a time, each under its own budget. */
import { parentPort } from "node:worker_threads";
import { BudgetExceeded, withBudget } from "./budget.ts";
import { domWorkSync } from "./work.ts";
import type { WorkerJob, WorkerReply, WorkerTask } from "./workers.ts";
import { extract } from "../mod.ts";

function perform(task: WorkerTask) {
  return task.kind === "dom" ? domWorkSync(task.work) : extract(task.html, task.url, task.options);
}

parentPort!.on("message", ({ task, endsAt, cancel }: WorkerJob) => {
  let reply: WorkerReply;
  try {
    const budget = { endsAt, cancelled: new Int32Array(cancel) };
    reply = { ok: true, result: withBudget(budget, () => perform(task)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { ok: false, overBudget: error instanceof BudgetExceeded, message };
  }
  parentPort!.postMessage(reply);
});
