/**
 * `deno task bench:extract`: linkpeek's extract() against metascraper on the shared corpus, in
 * one run: time per page (median/p90/max), their ratios, peak RSS during linkpeek's pass, and
 * both engines' corpus scores. metascraper runs on Deno here, without its native re2 addon;
 * its network-using rules are stubbed offline (see METASCRAPER_NOTES).
 */
import { extract } from "../lib/extract/mod.ts";
import {
  type CorpusCase,
  exclAccuracy,
  FIELDS,
  loadCorpus,
  score,
  type ScoreReport,
} from "../tests/extract/_corpus.ts";

const METASCRAPER_NOTES = [
  "logo-favicon: favicon/google/root-favicon probes off; icon candidates taken as reachable",
  "audio, video: iframe and twitter:player loading stubbed (no network)",
  "manifest: left out (it fetches the web app manifest)",
];

// deno-lint-ignore no-explicit-any
type Any = any;
type Engine = (c: CorpusCase) => Promise<Record<string, unknown>> | Record<string, unknown>;

const write = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

function firstOfEach(e: ReturnType<typeof extract>): Record<string, unknown> {
  return {
    ...e,
    image: e.image[0] ?? null,
    logo: e.logo[0] ?? null,
    audio: e.audio[0] ?? null,
    video: e.video[0] ?? null,
  };
}

/** Loads metascraper and its bundles; a bundle that fails is reported and left out. */
async function loadMetascraper(): Promise<{ run: Engine; failed: string[] }> {
  const failed: string[] = [];
  const load = async (name: string, spec: Promise<Any>, opts?: Any) => {
    try {
      const mod = await spec;
      return (mod.default ?? mod)(opts);
    } catch (err) {
      failed.push(`${name}: ${String(err).split("\n")[0]}`);
      return null;
    }
  };
  // deno-lint-ignore require-await
  const noIframe = async (_url: string, $: Any) => $.load("");
  const bundles = [
    await load("metascraper-author", import("npm:metascraper-author@5.56.2")),
    await load("metascraper-date", import("npm:metascraper-date@5.55.0")),
    await load("metascraper-description", import("npm:metascraper-description@5.56.2")),
    await load("metascraper-audio", import("npm:metascraper-audio@5.50.0"), {
      getIframe: noIframe,
    }),
    await load("metascraper-video", import("npm:metascraper-video@5.50.0"), {
      getIframe: noIframe,
    }),
    await load("metascraper-image", import("npm:metascraper-image@5.56.2")),
    await load("metascraper-lang", import("npm:metascraper-lang@5.51.1")),
    await load("metascraper-logo", import("npm:metascraper-logo@5.56.2")),
    await load("metascraper-logo-favicon", import("npm:metascraper-logo-favicon@5.56.2"), {
      favicon: false,
      google: false,
      rootFavicon: false,
      resolveFaviconUrl: (url: string) => Promise.resolve({ url }),
    }),
    await load("metascraper-publisher", import("npm:metascraper-publisher@5.56.2")),
    await load("metascraper-title", import("npm:metascraper-title@5.56.2")),
    await load("metascraper-url", import("npm:metascraper-url@5.56.2")),
    await load("metascraper-readability", import("npm:metascraper-readability@5.50.6")),
  ].filter(Boolean);
  const core = (await import("npm:metascraper@5.58.1")).default as Any;
  const scraper = core(bundles);
  return { run: (c) => scraper({ url: c.url, html: c.html }), failed };
}

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p90: at(0.9), max: s[s.length - 1]!, total: s.reduce((a, b) => a + b) };
}

async function pass(cases: CorpusCase[], engine: Engine, sampleRss = false) {
  const ms: number[] = [];
  const outputs: Record<string, unknown> = {};
  let peakRss = Deno.memoryUsage().rss;
  for (const c of cases) {
    const t = performance.now();
    try {
      outputs[c.name] = await engine(c);
    } catch (err) {
      outputs[c.name] = { _error: String(err) };
    }
    ms.push(performance.now() - t);
    if (sampleRss) peakRss = Math.max(peakRss, Deno.memoryUsage().rss);
  }
  return { ms, outputs, peakRss };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const fmt = (x: number) => x.toFixed(2).padStart(8);

function scoreTable(name: string, r: ScoreReport): string[] {
  const lines = [
    `${name}: overall ${pct(r.overall.micro)}  excl ${pct(r.overall.excluding_flagged.micro)}`,
  ];
  for (const f of FIELDS) {
    const s = r.fields[f];
    if (s) {
      lines.push(
        `  ${f.padEnd(12)} plain ${pct(s.accuracy).padStart(6)}  excl ${
          pct(exclAccuracy(s)).padStart(6)
        }  (n=${s.n})`,
      );
    }
  }
  return lines;
}

async function main() {
  const cases = loadCorpus();
  const ms = await loadMetascraper();
  const linkpeek: Engine = (c) => firstOfEach(extract(c.html, c.url));

  // Each engine is warmed up (JIT, lazy init) on the whole corpus, then measured, linkpeek
  // first so that metascraper's garbage is not collected during linkpeek's pass.
  await pass(cases, linkpeek);
  const rssBefore = Deno.memoryUsage().rss;
  const lp = await pass(cases, linkpeek, true);
  await pass(cases, ms.run);
  const mt = await pass(cases, ms.run);
  const [lpScore, mtScore] = await Promise.all([score(lp.outputs), score(mt.outputs)]);
  const a = stats(lp.ms);
  const b = stats(mt.ms);

  write(
    `corpus: ${cases.length} pages, ${
      (cases.reduce((s, c) => s + c.bytes, 0) / 1e6).toFixed(1)
    } MB`,
  );
  write(`runtime: Deno ${Deno.version.deno} (V8 ${Deno.version.v8}) for both engines;`);
  write(`  metascraper 5.58.1 runs on Deno without its native re2 addon (JS RegExp fallback)`);
  for (const n of METASCRAPER_NOTES) write(`  metascraper ${n}`);
  for (const f of ms.failed) write(`  metascraper bundle FAILED to load: ${f}`);
  write("");
  write(`ms per page      median      p90      max    total`);
  write(`linkpeek     ${fmt(a.median)} ${fmt(a.p90)} ${fmt(a.max)} ${fmt(a.total)}`);
  write(`metascraper  ${fmt(b.median)} ${fmt(b.p90)} ${fmt(b.max)} ${fmt(b.total)}`);
  write(
    `ratio linkpeek/metascraper: median ${(a.median / b.median).toFixed(3)}  max ${
      (a.max / b.max).toFixed(3)
    }`,
  );
  write(
    `linkpeek peak RSS during its pass: ${(lp.peakRss / 2 ** 20).toFixed(1)} MiB (before: ${
      (rssBefore / 2 ** 20).toFixed(1)
    } MiB)`,
  );
  write("");
  for (const l of scoreTable("linkpeek", lpScore)) write(l);
  write("");
  for (const l of scoreTable("metascraper", mtScore)) write(l);
}

if (import.meta.main) await main();
