/**
 * A hard budget for work over a page's DOM, checked by the work itself inside its loops. A
 * Worker busy in a loop cannot be stopped from outside (Deno's worker.terminate() leaves it
 * running), so every loop over the DOM spends from the budget of the job it runs for, and the
 * job ends itself once its deadline passes or its caller gives up (a flag it can read while
 * busy). Outside a job (the CLI, tests) spending is free.
 */

/** Thrown inside the work once its budget is gone. */
export class BudgetExceeded extends Error {
  constructor(reason: string) {
    super(`The page's DOM work stopped: ${reason}.`);
    this.name = "BudgetExceeded";
  }
}

export interface Budget {
  /** Epoch ms (Date.now(): a Worker's performance.now() has another origin). */
  endsAt: number;
  /** Set to non-zero by the caller to stop the job; shared memory, read while busy. */
  cancelled?: Int32Array;
}

interface Job {
  budget: Budget;
  steps: number;
  /** Why the budget ran out; every later spend() throws at once. */
  over: string | null;
}

/** Steps between clock reads: Date.now() costs far more than a step. */
const STEPS_PER_CHECK = 1024;

let current: Job | null = null;

/** Runs `work` (synchronous) under `budget`. */
export function withBudget<T>(budget: Budget, work: () => T): T {
  const outer = current;
  current = { budget, steps: 0, over: null };
  try {
    const result = work();
    // Work that swallowed the error (a custom rule yields null) still fails as a whole.
    if (current.over) throw new BudgetExceeded(current.over);
    return result;
  } finally {
    current = outer;
  }
}

/** One step of work over the page: throws BudgetExceeded once the budget is gone. */
export function spend(): void {
  const job = current;
  if (job === null) return;
  if (job.over === null) {
    if (++job.steps % STEPS_PER_CHECK !== 0) return;
    job.over = overReason(job.budget);
    if (job.over === null) return;
  }
  throw new BudgetExceeded(job.over);
}

function overReason(budget: Budget): string | null {
  if (budget.cancelled && Atomics.load(budget.cancelled, 0) !== 0) return "the request ended";
  if (Date.now() >= budget.endsAt) return "its time budget ran out";
  return null;
}
