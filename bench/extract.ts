/**
 * `deno task bench:extract`: linkpeek's extract() against metascraper and against a bare
 * htmlparser2 parse (no-op handlers) of the same pages, in one run: time per page
 * (median/p90/max), their ratios, peak RSS during linkpeek's pass, both engines' corpus scores
 * on `cases` and `cases-platform`, and each target of issue #12 with PASS or FAIL.
 *
 * Pages come from ../shared/corpus when it is beside the repo (the full sets), else from the
 * vendored copy in tests/fixtures/corpus. metascraper runs on Deno here, without its native
 * re2 addon, with its standard bundles only: its platform packages fetch over the network, and
 * nothing here may leave the machine (see METASCRAPER_NOTES).
 */
import { Parser } from "htmlparser2";
import { extract } from "../lib/extract/mod.ts";
import {
  type CaseSet,
  type CorpusCase,
  exclAccuracy,
  FIELDS,
  loadCorpus,
  score,
  type ScoreReport,
  VENDORED,
} from "../tests/extract/_corpus.ts";

/** The full sets, beside a developer's checkout (a user's clone has only the vendored copy). */
const SHARED = new URL("../../shared/corpus/", import.meta.url);

function hasShared(): boolean {
  try {
    return Deno.statSync(new URL("cases/", SHARED)).isDirectory;
  } catch {
    return false;
  }
}

const METASCRAPER_NOTES = [
  "standard bundles only: its platform packages (youtube, spotify, telegram...) need the network",
  "logo-favicon: favicon/google/root-favicon probes off; icon candidates taken as reachable",
  "audio, video: iframe and twitter:player loading stubbed (no network)",
  "manifest: left out (it fetches the web app manifest)",
];
/** Timed rounds per engine; a page's time is its median over the rounds. */
const ROUNDS = { linkpeek: 9, metascraper: 2 };

// deno-lint-ignore no-explicit-any
type Any = any;
type Output = Record<string, unknown>;
type Engine = (c: CorpusCase) => Promise<unknown> | unknown;

const write = (s = "") => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

function firstOfEach(e: ReturnType<typeof extract>): Output {
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

const noop = () => {};
/** The floor any HTML reader pays: htmlparser2 tokenizing and building attributes, no work. */
const bareParse: Engine = (c) => {
  new Parser({ onopentag: noop, onclosetag: noop, ontext: noop }, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  }).end(c.html);
};

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p90: at(0.9), max: s[s.length - 1]!, total: s.reduce((a, b) => a + b) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

interface Measured {
  /** Each page's median time over the rounds, in page order. */
  ms: number[];
  /** The outputs of the last round, by case name. */
  outputs: Record<string, Output>;
  /** The highest RSS seen after any page of this engine. */
  peakRss: number;
}

/**
 * One warm-up round, then `rounds` timed rounds; within a round each engine passes over every
 * page in turn, so that a burst of load from elsewhere on the machine falls on all of them.
 */
async function measure(
  cases: CorpusCase[],
  engines: Record<string, Engine>,
  rounds: number,
): Promise<Record<string, Measured>> {
  const names = Object.keys(engines);
  const times = Object.fromEntries(names.map((n) => [n, cases.map(() => [] as number[])]));
  const out: Record<string, Measured> = {};
  for (const n of names) out[n] = { ms: [], outputs: {}, peakRss: 0 };
  for (let round = 0; round <= rounds; round++) {
    for (const name of names) {
      const engine = engines[name]!;
      const m = out[name]!;
      for (const [i, c] of cases.entries()) {
        const t = performance.now();
        let result: unknown;
        try {
          result = await engine(c);
        } catch (err) {
          result = { _error: String(err) };
        }
        const ms = performance.now() - t;
        m.peakRss = Math.max(m.peakRss, Deno.memoryUsage().rss);
        if (round === 0) continue;
        times[name]![i]!.push(ms);
        m.outputs[c.name] = result as Output;
      }
    }
  }
  for (const n of names) out[n]!.ms = times[n]!.map(median);
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const fmt = (x: number) => x.toFixed(2).padStart(8);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

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
        }  (n=${s.n}, flagged ${s.nFlagged})`,
      );
    }
  }
  return lines;
}

function lowestField(r: ScoreReport): { field: string; acc: number } {
  let low = { field: "-", acc: 1 };
  for (const f of FIELDS) {
    const s = r.fields[f];
    if (s && exclAccuracy(s) < low.acc) low = { field: f, acc: exclAccuracy(s) };
  }
  return low;
}

async function main() {
  const root = hasShared() ? SHARED : VENDORED;
  const sets: Record<CaseSet, CorpusCase[]> = {
    cases: await loadCorpus("cases", root),
    "cases-platform": await loadCorpus("cases-platform", root),
  };
  const all = [...sets.cases, ...sets["cases-platform"]];
  const linkpeek: Engine = (c) => firstOfEach(extract(c.html, c.url));

  // linkpeek and the bare parse first, so that metascraper's garbage is not collected during
  // their passes.
  const rssBefore = Deno.memoryUsage().rss;
  const fast = await measure(all, { linkpeek, bare: bareParse }, ROUNDS.linkpeek);
  const lp = fast.linkpeek!, bare = fast.bare!;
  // metascraper's modules load only now, so they are not in linkpeek's RSS
  const ms = await loadMetascraper();
  const mt = (await measure(all, { metascraper: ms.run }, ROUNDS.metascraper)).metascraper!;
  const a = stats(lp.ms), p = stats(bare.ms), b = stats(mt.ms);
  const slowest = all.map((c, i) => ({ name: c.name, ms: lp.ms[i]! }))
    .sort((x, y) => y.ms - x.ms).slice(0, 3);

  const source = root === SHARED ? "../shared/corpus (full sets)" : "tests/fixtures/corpus";
  const mb = (all.reduce((s, c) => s + c.bytes, 0) / 1e6).toFixed(1);
  write(
    `corpus: ${source}: cases ${sets.cases.length} + cases-platform ${
      sets["cases-platform"].length
    } pages, ${mb} MB`,
  );
  write(`runtime: Deno ${Deno.version.deno} (V8 ${Deno.version.v8}) for every engine`);
  write(`  metascraper 5.58.1 runs on Deno without its native re2 addon (JS RegExp fallback)`);
  for (const n of METASCRAPER_NOTES) write(`  metascraper ${n}`);
  for (const f of ms.failed) write(`  metascraper bundle FAILED to load: ${f}`);
  write(
    `  a page's time is its median over ${ROUNDS.linkpeek} rounds (linkpeek and the bare parse, taking turns) or ${ROUNDS.metascraper} (metascraper), after one warm-up round`,
  );
  write();
  write(`ms per page (all ${all.length})   median      p90      max    total`);
  write(`linkpeek                ${fmt(a.median)} ${fmt(a.p90)} ${fmt(a.max)} ${fmt(a.total)}`);
  write(`htmlparser2 bare parse  ${fmt(p.median)} ${fmt(p.p90)} ${fmt(p.max)} ${fmt(p.total)}`);
  write(`metascraper             ${fmt(b.median)} ${fmt(b.p90)} ${fmt(b.max)} ${fmt(b.total)}`);
  write(`linkpeek slowest pages: ${slowest.map((s) => `${s.name} ${s.ms.toFixed(1)}`).join(", ")}`);
  write(
    `linkpeek peak RSS during its pass: ${mib(lp.peakRss)} (before: ${
      mib(rssBefore)
    }, the corpus loaded; the bare parse takes turns with it)`,
  );
  write();

  const reports = {
    cases: { lp: score(sets.cases, lp.outputs), mt: score(sets.cases, mt.outputs) },
    "cases-platform": {
      lp: score(sets["cases-platform"], lp.outputs),
      mt: score(sets["cases-platform"], mt.outputs),
    },
  };
  for (const set of ["cases", "cases-platform"] as const) {
    for (const l of scoreTable(`linkpeek on ${set}`, reports[set].lp)) write(l);
    write();
    for (const l of scoreTable(`metascraper (standard bundles) on ${set}`, reports[set].mt)) {
      write(l);
    }
    write();
  }

  const casesExcl = reports.cases.lp.overall.excluding_flagged.micro;
  const low = lowestField(reports.cases.lp);
  const platformExcl = reports["cases-platform"].lp.overall.excluding_flagged.micro;
  const speedup = b.median / a.median;
  const overBare = a.median / p.median;
  const targets: [string, boolean][] = [
    [`cases excl ${pct(casesExcl)} >= 99%`, casesExcl >= 0.99],
    [`cases lowest field ${low.field} ${pct(low.acc)} >= 95%`, low.acc >= 0.95],
    [`cases-platform excl ${pct(platformExcl)} >= 95%`, platformExcl >= 0.95],
    [`median ${speedup.toFixed(1)}x faster than metascraper (>= 20x)`, speedup >= 20],
    [`median ${overBare.toFixed(2)}x a bare htmlparser2 parse (<= 2x)`, overBare <= 2],
    [`slowest page ${a.max.toFixed(1)} ms (<= 50 ms)`, a.max <= 50],
  ];
  write("targets (issue #12):");
  for (const [what, ok] of targets) write(`  ${ok ? "PASS" : "FAIL"}  ${what}`);
  write(`  peak RSS of linkpeek's pass: ${mib(lp.peakRss)}`);
}

if (import.meta.main) await main();
