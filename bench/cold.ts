/**
 * `deno task bench:cold`: linkpeek's cold answer (`ping=false`, a fresh cache key per request)
 * for each corpus page (tests/fixtures/corpus, served from loopback), against the floor measured
 * in the same run: a bare fetch of the same page plus `extract()` on its text. Prints the p50
 * per page, the ratio of their sums (target: <= 1.25x), and the p50 of each `server-timing`
 * phase over all requests (target: no phase but fetch, extract, probe and browser over 1 ms).
 *
 *   deno task bench:cold [--rounds=9]
 *
 * `prerender=false` too: a page that prerender=auto sends to Chromium costs a browser visit,
 * which bench:screenshot measures; here the floor is a fetch and a parse.
 *
 * Requests run one at a time, the floor and linkpeek interleaved per page, after one unmeasured
 * pass. State is embedded in a temp DATA_DIR; request log lines are off (as in bench:load).
 * Nothing listens or connects beyond 127.0.0.1.
 */
import { benchConfig } from "./_config.ts";
import { createHandler } from "../lib/handler/mod.ts";
import { setQuiet } from "../lib/util/log.ts";
import { extract } from "../lib/extract/mod.ts";
import { PHASES } from "../lib/util/server_timing.ts";
import { type CaseSet, loadCorpus } from "../tests/extract/_corpus.ts";

setQuiet(true);
const write = (s = "") => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

const roundsArg = Deno.args.find((a) => a.startsWith("--rounds="));
const ROUNDS = roundsArg ? Number(roundsArg.slice(9)) : 9;
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("--rounds must be a positive integer");

function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `name;dur=1.2, other;dur=3` as name -> ms. */
function serverTiming(header: string | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = params.find((p) => p.trim().startsWith("dur="));
    if (name && dur) out.set(name, Number(dur.trim().slice(4)));
  }
  return out;
}

async function run(): Promise<void> {
  const sets: CaseSet[] = ["cases", "cases-platform"];
  const pages = (await Promise.all(sets.map(async (set) =>
    (await loadCorpus(set)).map((c) => ({
      path: `/${set}/${c.name}`,
      name: `${set === "cases" ? "" : "platform/"}${c.name}`,
      html: new TextEncoder().encode(c.html),
    }))
  ))).flat();
  const byPath = new Map(pages.map((p) => [p.path, p.html]));
  const target = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (request) => {
      const body = byPath.get(new URL(request.url).pathname);
      if (!body) return new Response("not found", { status: 404 });
      return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  );
  const origin = `http://127.0.0.1:${target.addr.port}`;
  const config = await benchConfig(
    target.addr.port,
    { CACHE_MAX_BYTES: String(512 * 1024 * 1024) },
    Deno.env.toObject(),
  );
  const dataDir = config.dataDir;
  const handler = await createHandler(config);
  const app = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (request, info) => handler(request, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname }),
  );
  const api = `http://127.0.0.1:${app.addr.port}/`;
  let serial = 0;

  const floor = async (path: string): Promise<number> => {
    const url = `${origin}${path}?v=${serial++}`;
    const started = performance.now();
    const html = await (await fetch(url)).text();
    extract(html, url);
    return performance.now() - started;
  };
  const linkpeek = async (path: string): Promise<{ ms: number; phases: Map<string, number> }> => {
    const target = `${origin}${path}?v=${serial++}`;
    const started = performance.now();
    const response = await fetch(
      `${api}?url=${encodeURIComponent(target)}&ping=false&prerender=false`,
    );
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (response.status !== 200 || response.headers.get("x-cache-status") !== "MISS") {
      throw new Error(`${path}: ${response.status} ${response.headers.get("x-cache-status")}`);
    }
    return { ms, phases: serverTiming(response.headers.get("server-timing")) };
  };

  for (const page of pages) {
    await floor(page.path);
    await linkpeek(page.path);
  }
  const rows: { name: string; kb: number; floor: number; linkpeek: number }[] = [];
  const phases = new Map<string, number[]>();
  for (const page of pages) {
    const floors: number[] = [];
    const ours: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      floors.push(await floor(page.path));
      const answer = await linkpeek(page.path);
      ours.push(answer.ms);
      for (const [name, ms] of answer.phases) {
        const list = phases.get(name) ?? [];
        list.push(ms);
        phases.set(name, list);
      }
    }
    rows.push({
      name: page.name,
      kb: page.html.length / 1024,
      floor: median(floors),
      linkpeek: median(ours),
    });
  }

  write(`bench:cold: ${pages.length} corpus pages on loopback, ${ROUNDS} rounds each, one at a`);
  write("time; times are p50 ms per page (client side: request sent to body read)");
  write("the machine is shared with other work: numbers are noisy\n");
  write(
    `${"page".padEnd(36)} ${"KB".padStart(6)} ${"floor".padStart(7)} ${"linkpeek".padStart(9)}`,
  );
  for (const row of rows) {
    write(
      `${row.name.padEnd(36)} ${row.kb.toFixed(0).padStart(6)} ${
        row.floor.toFixed(2).padStart(7)
      } ${row.linkpeek.toFixed(2).padStart(9)}  ${(row.linkpeek / row.floor).toFixed(2)}x`,
    );
  }
  const sum = (key: "floor" | "linkpeek") => rows.reduce((s, r) => s + r[key], 0);
  const ratio = sum("linkpeek") / sum("floor");
  const ratios = rows.map((r) => r.linkpeek / r.floor);
  write(
    `\nsum of p50s: floor ${sum("floor").toFixed(1)} ms, linkpeek ${
      sum("linkpeek").toFixed(1)
    } ms: ${ratio.toFixed(2)}x (median page ${median(ratios).toFixed(2)}x) ` +
      `[target <= 1.25x: ${ratio <= 1.25 ? "PASS" : "FAIL"}]`,
  );
  write("\nserver-timing p50 over all requests (ms):");
  const known: readonly string[] = PHASES;
  const named = [...PHASES, ...[...phases.keys()].filter((n) => !known.includes(n))];
  const heavy = new Set(["fetch", "extract", "probe", "browser", "total"]);
  const over: string[] = [];
  for (const name of named) {
    const p50 = median(phases.get(name) ?? []);
    if (!heavy.has(name) && p50 > 1) over.push(name);
    write(`  ${name.padEnd(8)} ${Number.isNaN(p50) ? "   (absent)" : p50.toFixed(2).padStart(8)}`);
  }
  write(
    `other phases over 1 ms at p50: ${over.length ? over.join(", ") : "none"} [target none: ${
      over.length ? "FAIL" : "PASS"
    }]`,
  );
  await app.shutdown();
  await target.shutdown();
  await Deno.remove(dataDir, { recursive: true });
}

await run();
Deno.exit(0);
