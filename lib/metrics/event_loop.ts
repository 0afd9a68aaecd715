/**
 * Event-loop delay from a timer-lag sampler: a timer armed every 100 ms records how late it
 * fires. Deno's `perf_hooks.monitorEventLoopDelay` exists but measured nothing here (a 100 ms
 * busy loop showed as an 8 µs maximum), so linkpeek measures the lag itself. One sampler per
 * process, started on first use; its timer is unref'd so it never keeps the process alive.
 */
import { Histogram } from "./exposition.ts";

const INTERVAL_MS = 100;
/** Seconds: a healthy loop sits in the first buckets; a stall shows in the last ones. */
const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

let delays: Histogram | null = null;

function arm(histogram: Histogram): void {
  const due = performance.now() + INTERVAL_MS;
  const timer = setTimeout(() => {
    histogram.observe(Math.max(0, performance.now() - due) / 1000);
    arm(histogram);
  }, INTERVAL_MS);
  Deno.unrefTimer(timer);
}

/** The process's event-loop delay histogram (the sampler starts on the first call). */
export function eventLoopDelay(): Histogram {
  if (!delays) {
    delays = new Histogram(BOUNDS);
    arm(delays);
  }
  return delays;
}
