/**
 * `deno task bench:load`: linkpeek under concurrent load on loopback, next to a bare
 * Deno.serve answering the same JSON in the same run. Scenarios: bare server, cached hits
 * (one URL, warmed), cold extractions (a new target URL per request: fetch, extract, ping).
 * Prints requests/s, p50 and p99 for each and the cached/bare ratio (target: >= 0.5).
 *
 *   deno task bench:load [--concurrency=32] [--duration=5] [--max=50000]
 *
 * State is embedded in a temp DATA_DIR, or Redis when REDIS_URL is set. Nothing listens or
 * connects beyond 127.0.0.1.
 */
import { loadConfig } from "../lib/config.ts";
import { createHandler } from "../lib/handler.ts";
import { setQuiet } from "../lib/log.ts";

setQuiet(true);
const write = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

function flag(name: string, fallback: number): number {
  const arg = Deno.args.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const CONCURRENCY = flag("concurrency", 32);
const DURATION_MS = flag("duration", 5) * 1000;
const MAX_REQUESTS = flag("max", 50_000);
const WARMUP_MS = 500;

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

interface Result {
  name: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** CONCURRENCY in-process clients, each looping until the time or request budget is spent. */
async function drive(
  name: string,
  url: (i: number) => string,
  options: { durationMs: number; maxRequests: number; check?: (r: Response) => boolean },
): Promise<Result> {
  let issued = 0;
  let errors = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + options.durationMs;
  const worker = async () => {
    while (issued < options.maxRequests && performance.now() < deadline) {
      const i = issued++;
      const started = performance.now();
      try {
        const response = await fetch(url(i));
        await response.arrayBuffer();
        if (response.status !== 200 || (options.check && !options.check(response))) errors++;
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
    name,
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

async function run(): Promise<void> {
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
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-bench-" });
  const config = loadConfig({
    ...Deno.env.toObject(),
    DATA_DIR: dataDir,
    TRUSTED_TARGETS: `127.0.0.1:${target.addr.port}`,
    FREE_DAILY_LIMIT: String(1e9),
    CACHE_MAX_BYTES: String(512 * 1024 * 1024),
  });
  const handler = await createHandler(config);
  const app = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (request, info) => handler(request, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname }),
  );
  const api = `http://127.0.0.1:${app.addr.port}/?url=`;
  const cachedUrl = `${api}${encodeURIComponent(`${targetOrigin}/article`)}`;

  // Warm the cache and capture the JSON the bare server will answer with.
  const first = await fetch(cachedUrl);
  const json = await first.text();
  if (first.status !== 200) throw new Error(`linkpeek answered ${first.status}: ${json}`);
  const hit = await fetch(cachedUrl);
  await hit.arrayBuffer();
  const hitStatus = hit.headers.get("x-cache-status");
  const bare = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response(json, { headers: { "content-type": "application/json; charset=utf-8" } }),
  );
  const bareUrl = `http://127.0.0.1:${bare.addr.port}/?url=x`;
  // The same JSON with the headers the contract requires on every API answer: how much of the
  // gap is the headers themselves (built, sent and parsed by the clients in this process).
  const contractHeaders = [...hit.headers].filter(([name]) => name !== "content-length");
  const bareWithHeaders = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response(json, { headers: contractHeaders }),
  );
  const bareWithHeadersUrl = `http://127.0.0.1:${bareWithHeaders.addr.port}/?url=x`;

  const results: Result[] = [];
  try {
    const budget = { durationMs: DURATION_MS, maxRequests: MAX_REQUESTS };
    const warm = { durationMs: WARMUP_MS, maxRequests: MAX_REQUESTS };
    await drive("warm-up", () => bareUrl, warm);
    results.push(await drive("bare Deno.serve", () => bareUrl, budget));
    await drive("warm-up", () => bareWithHeadersUrl, warm);
    results.push(
      await drive(`bare + ${contractHeaders.length} headers`, () => bareWithHeadersUrl, budget),
    );
    await drive("warm-up", () => cachedUrl, warm);
    results.push(
      await drive("linkpeek cached hit", () => cachedUrl, {
        ...budget,
        check: (r) => r.headers.get("x-cache-status") === "HIT",
      }),
    );
    const run = crypto.randomUUID().slice(0, 8);
    results.push(
      await drive(
        "linkpeek cold extraction",
        (i) => `${api}${encodeURIComponent(`${targetOrigin}/article?run=${run}&i=${i}`)}`,
        { ...budget, check: (r) => r.headers.get("x-cache-status") === "MISS" },
      ),
    );
  } finally {
    await Promise.all([
      app.shutdown(),
      bare.shutdown(),
      bareWithHeaders.shutdown(),
      target.shutdown(),
    ]);
    await handler.close();
    await Deno.remove(dataDir, { recursive: true });
  }

  write(
    `linkpeek load: ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000} s per scenario, ` +
      `state ${config.redisUrl ? "redis" : "embedded"}, payload ${json.length} bytes, ` +
      `warm request x-cache-status ${hitStatus}`,
  );
  write("");
  write(
    `${"scenario".padEnd(26)}${"requests".padStart(9)}${"errors".padStart(8)}` +
      `${"req/s".padStart(10)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`,
  );
  for (const r of results) {
    write(
      `${r.name.padEnd(26)}${String(r.requests).padStart(9)}${String(r.errors).padStart(8)}` +
        `${r.rps.toFixed(0).padStart(10)}${r.p50.toFixed(2).padStart(9)}${
          r.p99.toFixed(2).padStart(9)
        }`,
    );
  }
  const [bareResult, headersResult, hitResult] = results;
  const ratio = hitResult!.rps / bareResult!.rps;
  write("");
  write(
    `bare with the contract's headers / bare: ${
      (headersResult!.rps / bareResult!.rps).toFixed(2)
    }x; ` +
      `cached hits / bare with headers: ${(hitResult!.rps / headersResult!.rps).toFixed(2)}x`,
  );
  write(
    `cached hits / bare Deno.serve: ${ratio.toFixed(2)}x (target >= 0.50: ${
      ratio >= 0.5 ? "met" : "NOT met"
    })`,
  );
  if (results.some((r) => r.errors > 0)) {
    write("some requests failed or had an unexpected x-cache-status (see errors)");
    Deno.exitCode = 1;
  }
}

await run();
