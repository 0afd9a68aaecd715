/**
 * The extraction corpus: metascraper's saved test pages with the values its snapshots expect.
 * Tests read the copy vendored in tests/fixtures/corpus (the pages that fit in 64 KB gzipped);
 * the benchmark passes another root (the full sets, when a developer has them).
 */
import { decodeHtml } from "../../lib/fetch/decode.ts";
import type { CaseMeta } from "./_score.ts";

export { exclAccuracy, FIELDS, score, type ScoreReport } from "./_score.ts";

export const VENDORED = new URL("../fixtures/corpus/", import.meta.url);

/** `cases`: metascraper's integration and rule pages; `cases-platform`: its platform packages. */
export type CaseSet = "cases" | "cases-platform";

export interface CorpusCase {
  name: string;
  url: string;
  html: string;
  bytes: number;
  meta: CaseMeta;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The page's bytes: `page.html`, or `page.html.gz` decompressed. */
async function pageBytes(dir: URL): Promise<Uint8Array> {
  try {
    return await Deno.readFile(new URL("page.html", dir));
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    return await gunzip(await Deno.readFile(new URL("page.html.gz", dir)));
  }
}

/** Every case of `set` under `root`, decoded the way the service decodes a body. */
export async function loadCorpus(
  set: CaseSet,
  root: URL = VENDORED,
): Promise<CorpusCase[]> {
  const casesDir = new URL(`${set}/`, root);
  let names: string[];
  try {
    names = [...Deno.readDirSync(casesDir)].filter((e) => e.isDirectory).map((e) => e.name)
      .sort();
  } catch (err) {
    throw new Error(`The extraction corpus is missing at ${casesDir.pathname}: ${err}`);
  }
  return await Promise.all(names.map(async (name) => {
    const dir = new URL(`${name}/`, casesDir);
    const meta = JSON.parse(await Deno.readTextFile(new URL("meta.json", dir))) as CaseMeta;
    const body = await pageBytes(dir);
    return { name, url: meta.url, html: decodeHtml(body, null), bytes: body.length, meta };
  }));
}
