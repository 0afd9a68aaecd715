/**
 * The shared extraction corpus (/work/shared/corpus beside the repo): loading its cases and
 * scoring outputs with its own score.mjs, so tests and the benchmark judge alike.
 */
import { decodeHtml } from "../../lib/fetch/decode.ts";

export const CORPUS_DIR = new URL("../../../shared/corpus", import.meta.url);

export interface CorpusCase {
  name: string;
  url: string;
  html: string;
  bytes: number;
}

export const FIELDS = [
  "title",
  "description",
  "author",
  "publisher",
  "date",
  "lang",
  "image",
  "logo",
  "url",
  "audio",
  "video",
] as const;

/** Every case, decoded the way the service decodes a body; throws saying what is missing. */
export function loadCorpus(): CorpusCase[] {
  const cases = new URL("cases/", CORPUS_DIR.href + "/");
  let names: string[];
  try {
    names = [...Deno.readDirSync(cases)].filter((e) => e.isDirectory).map((e) => e.name).sort();
  } catch (err) {
    throw new Error(
      `The extraction corpus is missing at ${cases.pathname} (expected beside the repo): ${err}`,
    );
  }
  return names.map((name) => {
    const dir = new URL(`${name}/`, cases);
    const meta = JSON.parse(Deno.readTextFileSync(new URL("meta.json", dir)));
    const body = Deno.readFileSync(new URL("page.html", dir));
    return { name, url: meta.url as string, html: decodeHtml(body, null), bytes: body.length };
  });
}

export interface FieldScore {
  n: number;
  ok: number;
  nFlagged: number;
  okFlagged: number;
  accuracy: number;
}

export interface ScoreReport {
  cases: number;
  fields: Record<string, FieldScore>;
  overall: {
    n: number;
    ok: number;
    micro: number;
    excluding_flagged: { n: number; ok: number; micro: number };
  };
  mismatches: {
    case: string;
    field: string;
    flagged: boolean;
    expected: unknown;
    actual: unknown;
  }[];
}

/** Accuracy of a field leaving out the values flagged offline-unreproducible. */
export function exclAccuracy(f: FieldScore): number {
  const n = f.n - f.nFlagged;
  return n ? (f.ok - f.okFlagged) / n : 1;
}

/** Scores `outputs` (case name -> fields) with the corpus' score.mjs and returns its report. */
export async function score(outputs: Record<string, unknown>): Promise<ScoreReport> {
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-score-" });
  try {
    const input = `${dir}/extracted.json`;
    const report = `${dir}/report.json`;
    await Deno.writeTextFile(input, JSON.stringify(outputs));
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("score.mjs", CORPUS_DIR.href + "/").pathname,
        input,
        CORPUS_DIR.pathname,
        "--json",
        report,
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`score.mjs failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return JSON.parse(await Deno.readTextFile(report));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
