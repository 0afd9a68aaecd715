/**
 * Where one request's time went, by phase, for its `server-timing` header. Phases that run
 * side by side (the browser beside extraction and probing) each count their own wall time.
 */
export const PHASES = [
  /**
   * The target page (or file) over the network. First, as the header began before it named
   * every phase: clients show it as it is (the Microlink CLI prints `timing fetch;dur=...`).
   */
  "fetch",
  /** The plan, the key and the daily count. */
  "admit",
  /** The response cache lookup. */
  "cache",
  /** Bytes to text (a document target converted too), file sniffing, the prerender=auto verdict. */
  "decode",
  /** Fields, custom rules, markdown, insights. */
  "extract",
  /** Follow-up fetches: media probes, the manifest, oEmbed. */
  "probe",
  /** Chromium visits (prerender, screenshot, pdf, page code) and hosting their captures. */
  "browser",
  /** Encoding the answer and writing it to the response cache. */
  "store",
  /** Shaping the answer (filter, embed, headers). */
  "respond",
] as const;

export type Phase = typeof PHASES[number];

export class Timings {
  readonly #ms = new Float64Array(PHASES.length);

  add(phase: Phase, ms: number): void {
    this.#ms[PHASES.indexOf(phase)]! += ms;
  }

  /** Runs `work` and adds its wall time to `phase`, whether it succeeds or not. */
  async time<T>(phase: Phase, work: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }

  get(phase: Phase): number {
    return this.#ms[PHASES.indexOf(phase)]!;
  }

  /** `admit;dur=0.1, cache;dur=0.3, ..., total;dur=12.0`: every phase, run or not. */
  header(totalMs: number): string {
    let out = "";
    for (let i = 0; i < PHASES.length; i++) out += `${PHASES[i]};dur=${this.#ms[i]!.toFixed(1)}, `;
    return `${out}total;dur=${totalMs.toFixed(1)}`;
  }
}
