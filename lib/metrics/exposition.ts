/**
 * Prometheus text exposition format 0.0.4: metric families with HELP and TYPE, label escaping,
 * and a fixed-bucket histogram. `promtool check metrics` is the judge (tests/ops/metrics_test.ts).
 */

export type Labels = Record<string, string | number>;

export function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) =>
    `${k}="${String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`
  );
  return parts.length ? `{${parts.join(",")}}` : "";
}

/** A histogram with fixed upper bounds (seconds, bytes...), counted cumulatively on render. */
export class Histogram {
  readonly #bounds: readonly number[];
  readonly #counts: number[];
  #sum = 0;
  #count = 0;

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.#counts = new Array<number>(bounds.length).fill(0);
  }

  observe(value: number): void {
    this.#sum += value;
    this.#count += 1;
    // Counted in the first bucket only; render adds them up (observe stays O(1) on average).
    const i = this.#bounds.findIndex((le) => value <= le);
    if (i >= 0) this.#counts[i]! += 1;
  }

  get count(): number {
    return this.#count;
  }

  samples(name: string): string[] {
    const lines: string[] = [];
    let cumulative = 0;
    this.#bounds.forEach((le, i) => {
      cumulative += this.#counts[i]!;
      lines.push(`${name}_bucket{le="${le}"} ${cumulative}`);
    });
    lines.push(`${name}_bucket{le="+Inf"} ${this.#count}`);
    lines.push(`${name}_sum ${this.#sum}`);
    lines.push(`${name}_count ${this.#count}`);
    return lines;
  }
}

/** Lines of one exposition, family by family. */
export class Exposition {
  readonly #lines: string[] = [];

  #head(name: string, type: string, help: string): void {
    this.#lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  }

  /** A counter or gauge: one sample per label set (no labels: `[[{}, value]]`). */
  family(
    name: string,
    family: { type: "counter" | "gauge"; help: string; samples: Iterable<[Labels, number]> },
  ): this {
    this.#head(name, family.type, family.help);
    for (const [labels, value] of family.samples) {
      this.#lines.push(`${name}${labelText(labels)} ${value}`);
    }
    return this;
  }

  /** A family of one unlabelled sample. */
  one(name: string, family: { type: "counter" | "gauge"; help: string; value: number }): this {
    return this.family(name, { ...family, samples: [[{}, family.value]] });
  }

  histogram(name: string, help: string, histogram: Histogram): this {
    this.#head(name, "histogram", help);
    this.#lines.push(...histogram.samples(name));
    return this;
  }

  text(): string {
    return this.#lines.join("\n") + "\n";
  }
}
