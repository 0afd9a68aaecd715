/**
 * `deno task bench:load`: linkpeek under concurrent load on loopback, next to a bare Deno.serve
 * answering the same JSON in the same run.
 *
 * Scenarios: the bare server (the JSON and its content-type, nothing else); the bare server
 * sending the same ~24 headers linkpeek sends, in the cheapest way Deno offers (a cloned
 * template, per-request values set on the copy): the floor for any server that keeps the
 * contract's headers; linkpeek cached hits (one URL, warmed); linkpeek cold extractions (a new
 * target URL per request: fetch, extract, ping).
 *
 * Clients: `wrk` in its own process (what the server can do), and in-process fetch clients that
 * share the servers' thread (what one Deno process can do end to end). Both by default when wrk
 * is on PATH (`apt-get install wrk`). Each scenario runs `--rounds` times, interleaved; the
 * median requests/s and p99 are printed with the cached/bare ratio (target: >= 0.5).
 *
 *   deno task bench:load [--client=both|wrk|fetch] [--concurrency=32] [--duration=4] [--rounds=3]
 *
 * State is embedded in a temp DATA_DIR, or Redis when REDIS_URL is set. Request log lines are
 * off, as an operator sending them to a slow sink would not measure that sink. Nothing listens
 * or connects beyond 127.0.0.1.
 */
import { benchConfig } from "./_config.ts";
import { createHandler } from "../lib/handler/mod.ts";
import { setQuiet } from "../lib/util/log.ts";

setQuiet(true);
const write = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

function option(name: string, fallback: string): string {
  const arg = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
}

function number(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const CONCURRENCY = number("concurrency", 32);
const DURATION_S = number("duration", 4);
const ROUNDS = number("rounds", 3);
const WARMUP_S = 1;

async function hasWrk(): Promise<boolean> {
  try {
    // `wrk -v` exits non-zero after printing its version; only a missing binary throws.
    await new Deno.Command("wrk", { args: ["-v"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

// 1x1 PNG for og:image, so cold extractions also ping a media URL.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

function page(origin: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Load test page</title>
<meta name="description" content="A local page that linkpeek extracts under load.">
<meta property="og:title" content="Load test page">
<meta property="og:site_name" content="linkpeek bench">
<meta property="og:image" content="${origin}/image.png">
<meta name="author" content="Bench Author">
<meta property="article:published_time" content="2026-01-02T03:04:05Z">
<link rel="icon" href="${origin}/image.png">
</head><body><article><h1>Load test page</h1>${
    "<p>Some paragraph text for the extractor to walk through.</p>".repeat(50)
  }</article></body></html>`;
}

interface Sample {
  requests: number;
  rps: number;
  p99: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** CONCURRENCY in-process clients, each looping until the time is spent. */
async function driveFetch(
  url: (i: number) => string,
  seconds: number,
  check?: (r: Response) => boolean,
): Promise<Sample> {
  let issued = 0;
  let errors = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = issued++;
      const started = performance.now();
      try {
        const response = await fetch(url(i));
        await response.arrayBuffer();
        if (response.status !== 200 || (check && !check(response))) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p99: percentile(latencies, 0.99),
    errors,
  };
}

function wrkMs(value: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(value);
  if (!match) return NaN;
  const n = Number(match[1]);
  return match[2] === "us" ? n / 1000 : match[2] === "s" ? n * 1000 : n;
}

/** wrk in its own process; `script` (Lua) makes each request's path. */
async function driveWrk(url: string, seconds: number, script?: string): Promise<Sample> {
  const args = ["-t1", `-c${CONCURRENCY}`, `-d${seconds}s`, "--latency"];
  if (script) args.push("-s", script);
  const output = await new Deno.Command("wrk", { args: [...args, url], stdout: "piped" }).output();
  const text = new TextDecoder().decode(output.stdout);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1]);
  const p99 = wrkMs(/^\s+99%\s+(\S+)/m.exec(text)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  if (!output.success || !Number.isFinite(rps)) throw new Error(`wrk failed:\n${text}`);
  return { requests, rps, p99, errors: non2xx + socketErrors };
}

interface Scenario {
  name: string;
  /** Runs one measurement of `seconds`; a fresh URL set each time for cold extractions. */
  run(client: "wrk" | "fetch", seconds: number): Promise<Sample>;
  warm: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function run(): Promise<void> {
  const wanted = option("client", "both");
  if (!["both", "wrk", "fetch"].includes(wanted)) throw new Error("--client is both, wrk or fetch");
  const wrk = await hasWrk();
  if (wanted === "wrk" && !wrk) throw new Error("wrk is not on PATH: apt-get install wrk");
  const clients: ("wrk" | "fetch")[] = wanted === "both"
    ? (wrk ? ["wrk", "fetch"] : ["fetch"])
    : [wanted as "wrk" | "fetch"];

  let targetOrigin = "";
  const target = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (request): Response => {
      if (new URL(request.url).pathname === "/image.png") {
        return new Response(PNG, { headers: { "content-type": "image/png" } });
      }
      return new Response(page(targetOrigin), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  );
  targetOrigin = `http://127.0.0.1:${target.addr.port}`;
  const config = await benchConfig(
    target.addr.port,
    { CACHE_MAX_BYTES: String(512 * 1024 * 1024) },
    Deno.env.toObject(),
  );
  const dataDir = config.dataDir;
  const handler = await createHandler(config);
  // Counts answers that were not the expected cache status (wrk cannot see headers).
  const seen = { expect: "", unexpected: 0 };
  const app = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request, info) => {
      const response = await handler(request, {
        remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname,
      });
      if (response.status !== 200 || response.headers.get("x-cache-status") !== seen.expect) {
        seen.unexpected++;
      }
      return response;
    },
  );
  const appOrigin = `http://127.0.0.1:${app.addr.port}`;
  const cachedUrl = `${appOrigin}/?url=${encodeURIComponent(`${targetOrigin}/article`)}`;

  // Warm the cache and capture the JSON and the headers the bare servers answer with.
  seen.expect = "MISS";
  const first = await fetch(cachedUrl);
  const json = await first.text();
  if (first.status !== 200) throw new Error(`linkpeek answered ${first.status}: ${json}`);
  seen.expect = "HIT";
  const hit = await fetch(cachedUrl);
  await hit.arrayBuffer();
  const hitStatus = hit.headers.get("x-cache-status");

  const bare = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response(json, { headers: { "content-type": "application/json; charset=utf-8" } }),
  );
  const sameHeaders = [...hit.headers].filter(([name]) => name !== "date");
  const template = new Response(json, { headers: sameHeaders });
  const perRequest = ["x-request-id", "x-response-time", "server-timing", "x-cache-ttl"];
  let served = 0;
  const bareWithHeaders = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => {
      const response = template.clone();
      const headers = response.headers;
      served++;
      for (const name of perRequest) headers.set(name, String(served));
      headers.set("x-rate-limit-remaining", String(1e9 - served));
      headers.set("ratelimit", `"daily";r=${1e9 - served};t=1`);
      headers.set("cache-control", `public, max-age=${served % 86400}`);
      return response;
    },
  );

  const coldScript = await Deno.makeTempFile({ suffix: ".lua" });
  const bareUrl = `http://127.0.0.1:${bare.addr.port}/?url=x`;
  const headersUrl = `http://127.0.0.1:${bareWithHeaders.addr.port}/?url=x`;
  const scenarios: Scenario[] = [
    {
      name: "bare Deno.serve",
      warm: true,
      run: (client, s) => client === "wrk" ? driveWrk(bareUrl, s) : driveFetch(() => bareUrl, s),
    },
    {
      name: `bare + same ${sameHeaders.length} headers`,
      warm: true,
      run: (client, s) =>
        client === "wrk" ? driveWrk(headersUrl, s) : driveFetch(() => headersUrl, s),
    },
    {
      name: "linkpeek cached hit",
      warm: true,
      async run(client, s) {
        seen.expect = "HIT";
        seen.unexpected = 0;
        const sample = client === "wrk"
          ? await driveWrk(cachedUrl, s)
          : await driveFetch(() => cachedUrl, s);
        return { ...sample, errors: sample.errors + seen.unexpected };
      },
    },
    {
      name: "linkpeek cold extraction",
      warm: false,
      async run(client, s) {
        seen.expect = "MISS";
        seen.unexpected = 0;
        const prefix = `${targetOrigin}/article?run=${crypto.randomUUID().slice(0, 8)}&i=`;
        let sample: Sample;
        if (client === "wrk") {
          await Deno.writeTextFile(
            coldScript,
            `counter = 0\nrequest = function()\n  counter = counter + 1\n` +
              `  return wrk.format("GET", "/?url=${encodeURIComponent(prefix)}" .. counter)\nend\n`,
          );
          sample = await driveWrk(`${appOrigin}/`, s, coldScript);
        } else {
          sample = await driveFetch(
            (i) => `${appOrigin}/?url=${encodeURIComponent(prefix + i)}`,
            s,
          );
        }
        return { ...sample, errors: sample.errors + seen.unexpected };
      },
    },
  ];

  const results = new Map<string, Sample[]>();
  try {
    for (const client of clients) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const scenario of scenarios) {
          if (scenario.warm) await scenario.run(client, WARMUP_S);
          const key = `${client}\n${scenario.name}`;
          results.set(key, [...(results.get(key) ?? []), await scenario.run(client, DURATION_S)]);
        }
      }
    }
  } finally {
    await Promise.all([
      app.shutdown(),
      bare.shutdown(),
      bareWithHeaders.shutdown(),
      target.shutdown(),
    ]);
    await handler.close();
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(coldScript);
  }

  write(
    `linkpeek load: ${CONCURRENCY} connections, ${ROUNDS} rounds of ${DURATION_S} s per ` +
      `scenario (median shown), state ${config.redisUrl ? "redis" : "embedded"}, ` +
      `payload ${json.length} bytes, warm request x-cache-status ${hitStatus}`,
  );
  if (!wrk) write("wrk is not on PATH (apt-get install wrk): in-process clients only");
  let failed = false;
  for (const client of clients) {
    write("");
    write(
      client === "wrk"
        ? "client: wrk, in its own process (the server's own capacity)"
        : "client: in-process fetch, sharing the servers' thread (one process end to end)",
    );
    write(
      `${"scenario".padEnd(28)}${"req/s".padStart(9)}${"(range)".padStart(18)}` +
        `${"p99 ms".padStart(9)}${"errors".padStart(8)}`,
    );
    const rps = (name: string) => median(results.get(`${client}\n${name}`)!.map((s) => s.rps));
    for (const scenario of scenarios) {
      const samples = results.get(`${client}\n${scenario.name}`)!;
      const values = samples.map((s) => s.rps);
      const errors = samples.reduce((sum, s) => sum + s.errors, 0);
      failed ||= errors > 0;
      const range = `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
      write(
        `${scenario.name.padEnd(28)}${rps(scenario.name).toFixed(0).padStart(9)}` +
          `${`(${range})`.padStart(18)}` +
          `${median(samples.map((s) => s.p99)).toFixed(2).padStart(9)}${
            String(errors).padStart(8)
          }`,
      );
    }
    const [bareName, headersName, hitName] = scenarios.map((s) => s.name);
    const ratio = rps(hitName!) / rps(bareName!);
    write(
      `cached hits / bare: ${ratio.toFixed(2)}x (target >= 0.50: ${
        ratio >= 0.5 ? "met" : "NOT met"
      }); bare + same headers / bare: ${(rps(headersName!) / rps(bareName!)).toFixed(2)}x; ` +
        `cached hits / bare + same headers: ${(rps(hitName!) / rps(headersName!)).toFixed(2)}x`,
    );
  }
  if (failed) {
    write("some requests failed or had an unexpected x-cache-status (see errors)");
    Deno.exitCode = 1;
  }
}

await run();
