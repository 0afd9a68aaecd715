/**
 * Where one visit's time went, phase by phase, so that a benchmark can tell the pool's queue
 * from Chromium's work (BrowserOptions.onVisit receives them).
 */

/** Milliseconds per phase, in the order the phases ran. */
export type VisitTimings = Record<string, number>;

/** Laps of one visit: each `lap(phase)` books the time since the previous lap to `phase`. */
export class PhaseClock {
  readonly timings: VisitTimings = {};
  #last = performance.now();

  lap(phase: string): void {
    const now = performance.now();
    this.timings[phase] = (this.timings[phase] ?? 0) + now - this.#last;
    this.#last = now;
  }
}
