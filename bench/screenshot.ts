/**
 * `deno task bench:screenshot`: warm linkpeek screenshot requests (the whole API request: pool,
 * egress proxy, fresh context per visit, asset store, JSON answer) against the same capture
 * done directly with puppeteer-core on an already-open browser.
 * Everything is local: a page served on 127.0.0.1, Chromium from the machine.
 */
import puppeteer from "puppeteer-core";
import { loadConfig } from "../lib/config.ts";
import { createHandler } from "../lib/handler.ts";
import { findChromium } from "../lib/browser/launch.ts";
import { setQuiet } from "../lib/log.ts";
import { engineLoad, loadEngine } from "../lib/browser/adblock/mod.ts";

setQuiet(true);

// adblock's engine, loaded first so that its RSS is told apart from everything else's.
const rssBeforeEngine = Deno.memoryUsage().rss;
await loadEngine();
const engineRss = Deno.memoryUsage().rss - rssBeforeEngine;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 30);
const WARMUP = 3;
const CONCURRENT = 4;
/** Idle time between requests in the latency runs (a service is rarely hit back to back). */
const GAP_MS = 250;
const VIEWPORT = { width: 1280, height: 800 };

const CSS = "body{font:16px/1.5 sans-serif;margin:0}header{background:#123;color:#fff;" +
  "padding:24px}main{display:grid;grid-template-columns:repeat(3,1fr);gap:16px;padding:24px}" +
  ".card{border:1px solid #ccc;border-radius:8px;padding:16px;background:#fafafa}";
const PAGE = `<!doctype html><html><head><title>bench</title>
<link rel="stylesheet" href="/style.css"></head><body><header><h1>Bench page</h1></header><main>${
  Array.from({ length: 30 }, (_, i) =>
    `<div class="card"><h2>Card ${i}</h2><p>${"Lorem ipsum dolor sit amet. ".repeat(6)}</p>` +
    `<img src="/dot.svg" width="32" height="32" alt=""></div>`).join("")
}</main></body></html>`;
const DOT = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32">` +
  `<circle cx="16" cy="16" r="14" fill="#e33"/></svg>`;

/** The same page under a host name (cosmetic filters skip IP hosts), with ads to block. */
const AD_HOST = "pagead2.googlesyndication.com";
const adPage = (port: number) =>
  PAGE.replace(
    "<main>",
    `<script async src="http://${AD_HOST}:${port}/pagead/js/adsbygoogle.js"></script><main>` +
      `<ins class="adsbygoogle" data-ad-client="ca-pub-1" style="display:block;height:250px"></ins>`,
  );

const server = Deno.serve({
  port: 0,
  hostname: "127.0.0.1",
  onListen: () => {},
}, (request) => {
  const path = new URL(request.url).pathname;
  if (path === "/ads") {
    // Asked for under the page's own name: the URL carries the page server's port.
    return new Response(adPage(Number(new URL(request.url).port)), {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  }
  if (path === "/pagead/js/adsbygoogle.js") {
    return new Response("/* ad */", {
      headers: { "content-type": "text/javascript" },
    });
  }
  if (path === "/style.css") {
    return new Response(CSS, { headers: { "content-type": "text/css" } });
  }
  if (path === "/dot.svg") {
    return new Response(DOT, { headers: { "content-type": "image/svg+xml" } });
  }
  return new Response(PAGE, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
});
const url = `http://127.0.0.1:${server.addr.port}/`;

// Peak memory: this process plus every Chromium process (sampled from /proc).
let peakRss = 0;
const rssOfTree = (): number => {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry.name);
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // gone
    }
  }
  let total = 0;
  const stack = [Deno.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
};
const sampler = setInterval(
  () => (peakRss = Math.max(peakRss, rssOfTree())),
  100,
);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
  ]!;
};

/** Warm runs; `gapMs` of idle time before each, as between a service's requests. */
async function timeRuns(
  run: () => Promise<number>,
  gapMs: number,
): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    const started = performance.now();
    const bytes = await run();
    if (bytes < 1000) throw new Error(`capture too small: ${bytes} bytes`);
    times.push(performance.now() - started);
  }
  return times;
}

async function throughput(run: () => Promise<number>): Promise<number> {
  const total = RUNS * 2;
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, async () => {
    while (next++ < total) await run();
  }));
  return total / ((performance.now() - started) / 1000);
}

// The whole linkpeek request over HTTP: parameters, plan, browser pool, egress proxy, the
// capture, the asset store and the JSON answer. force=true so that no answer is a cache hit.
const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-bench-" });
const config = loadConfig({
  TRUSTED_TARGETS: `127.0.0.1:${server.addr.port}`,
  DATA_DIR: dataDir,
  FREE_DAILY_LIMIT: String(1e9),
});
// The ad page's names resolve to the page server, as a DNS server would answer.
config.resolver = (host) =>
  host === "news.example.com" || host === AD_HOST
    ? Promise.resolve(["127.0.0.1"])
    : Promise.reject(new Error(`unknown host ${host}`));
const handler = await createHandler(config);
const app = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: () => {} },
  (request, info) =>
    handler(request, {
      remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname,
    }),
);
const apiQuery = `&screenshot=true&meta=false&force=true&viewport.width=${VIEWPORT.width}` +
  `&viewport.height=${VIEWPORT.height}`;
// Each request names a distinct target URL: identical concurrent requests would be coalesced
// into one capture (single-flight), which would flatter the throughput.
let sequence = 0;
const linkpeekAt = (base: string, extra = "") => async () => {
  const target = `${base}?n=${sequence++}`;
  const response = await fetch(
    `http://127.0.0.1:${app.addr.port}/?url=${encodeURIComponent(target)}${apiQuery}${extra}`,
  );
  const body = await response.json();
  if (response.status !== 200) {
    throw new Error(`linkpeek answered ${response.status}: ${body.code}`);
  }
  return body.data.screenshot.size as number;
};
const linkpeek = linkpeekAt(url);

const executablePath = await findChromium(config.chromiumPath);
const browser = await puppeteer.launch({
  executablePath,
  pipe: true,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
  ],
});
const raw = async () => {
  const page = await browser.newPage();
  try {
    await page.setViewport(VIEWPORT);
    await page.goto(url, { waitUntil: "load" });
    return (await page.screenshot({ type: "png" })).length;
  } finally {
    await page.close();
  }
};

try {
  const row = (name: string, times: number[]) =>
    `  ${name.padEnd(9)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${
      percentile(times, 95).toFixed(1).padStart(6)
    } ms`;
  const lines = [
    `screenshot bench: ${VIEWPORT.width}x${VIEWPORT.height} png of a local page`,
  ];
  for (const gapMs of [GAP_MS, 0]) {
    // Interleave the two so that neither gets a quieter machine.
    const raws = await timeRuns(raw, gapMs);
    const ours = await timeRuns(linkpeek, gapMs);
    raws.push(...await timeRuns(raw, gapMs));
    ours.push(...await timeRuns(linkpeek, gapMs));
    const ratio = percentile(ours, 50) / percentile(raws, 50);
    lines.push(
      gapMs
        ? `warm requests ${gapMs} ms apart (${raws.length} each):`
        : `back to back, no idle time (${raws.length} each):`,
      row("raw", raws),
      row("linkpeek", ours),
      `  p50 ratio linkpeek/raw: ${ratio.toFixed(2)}x (target <= 1.5x) ${
        ratio <= 1.5 ? "OK" : "OVER"
      }`,
    );
  }
  // adblock on vs off on the same page: an ad script from an ad host and an AdSense slot.
  const adUrl = `http://news.example.com:${server.addr.port}/ads`;
  const off = await timeRuns(linkpeekAt(adUrl, "&adblock=false"), GAP_MS);
  const on = await timeRuns(linkpeekAt(adUrl), GAP_MS);
  off.push(...await timeRuns(linkpeekAt(adUrl, "&adblock=false"), GAP_MS));
  on.push(...await timeRuns(linkpeekAt(adUrl), GAP_MS));
  const load = engineLoad();
  lines.push(
    `adblock on the same page with an ad script and an ad slot, ${GAP_MS} ms apart (${on.length} each):`,
    row("off", off),
    row("on", on),
    `  p50 ratio on/off: ${(percentile(on, 50) / percentile(off, 50)).toFixed(2)}x`,
    `  engine load (once per process): ${load?.ms.toFixed(0)} ms, RSS +${
      (engineRss / 1024 / 1024).toFixed(0)
    } MiB (${((load?.bytes ?? 0) / 1024 / 1024).toFixed(1)} MiB serialized)`,
  );
  const ourThroughput = await throughput(linkpeek);
  const rawThroughput = await throughput(raw);
  lines.push(
    `throughput at ${CONCURRENT} concurrent: raw ${rawThroughput.toFixed(1)}/s, linkpeek ${
      ourThroughput.toFixed(1)
    }/s (${(ourThroughput / rawThroughput).toFixed(2)}x)`,
    `peak RSS (deno + both Chromiums): ${(peakRss / 1024 / 1024).toFixed(0)} MiB`,
  );
  // deno-lint-ignore no-console
  console.log(lines.join("\n"));
} finally {
  clearInterval(sampler);
  await browser.close();
  await app.shutdown();
  await handler.close();
  await server.shutdown();
  await Deno.remove(dataDir, { recursive: true });
}
