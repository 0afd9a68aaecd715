/**
 * The document workers' clock, bounded by the running job's budget. pdf.js runs a page on promise
 * callbacks alone: no timer fires and no check of the converter's runs until it gives the page
 * back, and Deno's terminate() does not stop a busy thread. A page may take hours (a Type3 glyph
 * drawing one form 100,000 times held its thread long after it was replaced). What pdf.js does
 * read, at each time slice it starts and every hundred operators, is Date.now: read past the
 * running job's budget (its deadline, or its caller gone), the clock throws BudgetExceeded there,
 * and pdf.js unwinds the page.
 */
import { type Budget, BudgetExceeded } from "../extract/dom/budget.ts";

const now = Date.now;
let running: Budget | null = null;

function overReason(budget: Budget, time: number): string | null {
  if (budget.cancelled && Atomics.load(budget.cancelled, 0) !== 0) return "the request ended";
  return time >= budget.endsAt ? "its time budget ran out" : null;
}

/** Puts the bounded clock where code reads `Date.now`, on this thread. */
export function boundClock(): void {
  Date.now = () => {
    const time = now();
    const over = running && overReason(running, time);
    if (over) throw new BudgetExceeded(over);
    return time;
  };
}

/** Runs `job` with this thread's clock bounded by `budget` (see boundClock). */
export async function withBoundedClock<T>(budget: Budget, job: () => Promise<T>): Promise<T> {
  running = budget;
  try {
    return await job();
  } finally {
    running = null;
  }
}
