/**
 * The content corpus's scorer (score.py), ported for the tests: 4-token shingle F1 against a
 * text truth, and the snippet rule (every "with" string found, no "without" string) against a
 * snippet truth. Tokens: NFKC, lowercase, letter/digit runs, each CJK character alone.
 */
const CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
const TOKEN = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{N}])+`, "gu");
const N = 4;

export interface Truth {
  id: string;
  dataset: string;
  text?: string;
  with?: string[];
  without?: string[];
}

function shingles(text: string): Map<string, number> {
  const tokens = text.normalize("NFKC").toLowerCase().match(TOKEN) ?? [];
  const counts = new Map<string, number>();
  if (!tokens.length) return counts;
  const n = Math.min(N, tokens.length);
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(" ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Shingle F1 of `predicted` against `truth`. */
export function textF1(predicted: string, truth: string): number {
  const p = shingles(predicted);
  const t = shingles(truth);
  let tp = 0;
  let predictedCount = 0;
  let truthCount = 0;
  for (const [key, count] of p) {
    predictedCount += count;
    tp += Math.min(count, t.get(key) ?? 0);
  }
  for (const count of t.values()) truthCount += count;
  const precision = predictedCount ? tp / predictedCount : truthCount ? 0 : 1;
  const recall = truthCount ? tp / truthCount : 1;
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

const normal = (s: string) => s.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase();

/** The snippet rule as a page's F1: "with" strings found are hits, "without" ones leaks. */
export function snippetF1(predicted: string, withs: string[], withouts: string[]): number {
  const text = normal(predicted);
  const found = withs.filter((s) => text.includes(normal(s))).length;
  const leaked = withouts.filter((s) => text.includes(normal(s))).length;
  const precision = found + leaked ? found / (found + leaked) : 0;
  const recall = withs.length ? found / withs.length : 0;
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

export function pageF1(predicted: string, truth: Truth): number {
  return truth.text !== undefined
    ? textF1(predicted, truth.text)
    : snippetF1(predicted, truth.with ?? [], truth.without ?? []);
}
