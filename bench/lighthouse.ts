/**
 * `deno task bench:lighthouse`: what one `insights.lighthouse=true` request costs (seconds, and
 * peak memory (PSS) of linkpeek's process plus every Chromium it runs), beside a `screenshot=true` request
 * of the same page in the same run as the reference. Everything is local: a page on 127.0.0.1,
 * Chromium from the machine. Memory is sampled every 50 ms from /proc (Linux only).
 */
import { loadConfig } from "../lib/config/mod.ts";
import { createHandler } from "../lib/handler/mod.ts";
import { setQuiet } from "../lib/util/log.ts";

setQuiet(true);
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 3);
const PAGE = `<!doctype html><html lang="en"><head><title>bench</title>
<meta name="viewport" content="width=device-width"></head><body><main><h1>Lighthouse bench</h1>${
  Array.from({ length: 40 }, (_, i) =>
    `<p>Paragraph ${i}: ${"Lorem ipsum dolor sit. ".repeat(8)}</p>`)
    .join("")
}<img src="/dot.svg" width="32" height="32"></main></body></html>`;
const DOT = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32">` +
  `<circle cx="16" cy="16" r="14" fill="#e33"/></svg>`;

const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: () => {} },
  (request) =>
    new URL(request.url).pathname === "/dot.svg"
      ? new Response(DOT, { headers: { "content-type": "image/svg+xml" } })
      : new Response(PAGE, {
        headers: { "content-type": "text/html; charset=utf-8" },
      }),
);
const target = `http://127.0.0.1:${server.addr.port}/`;
const config = loadConfig({
  DATA_DIR: await Deno.makeTempDir({ prefix: "linkpeek-bench-" }),
  TRUSTED_TARGETS: `127.0.0.1:${server.addr.port}`,
});
const handler = await createHandler(config);

/**
 * Memory in bytes of a process and all its descendants, as PSS (shared pages split between the
 * processes that share them, so Chromium's many processes are not counted many times over).
 * Children are found under every thread: a Worker's Chromium is a child of the Worker's thread.
 */
async function treeMemory(pid: number): Promise<number> {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const current = stack.pop()!;
    try {
      const rollup = await Deno.readTextFile(`/proc/${current}/smaps_rollup`);
      total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
      for await (const task of Deno.readDir(`/proc/${current}/task`)) {
        const children = await Deno.readTextFile(
          `/proc/${current}/task/${task.name}/children`,
        );
        stack.push(...children.trim().split(/\s+/).filter(Boolean).map(Number));
      }
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function measure(
  query: string,
): Promise<{ seconds: number; peakMb: number }> {
  let peak = await treeMemory(Deno.pid);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeMemory(Deno.pid));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const started = performance.now();
  const response = await handler(
    new Request(
      `http://localhost/?url=${encodeURIComponent(target)}&${query}&force=true`,
    ),
    { remoteAddr: "127.0.0.1" },
  );
  const body = await response.json();
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  if (body.status !== "success") {
    throw new Error(`${query}: ${JSON.stringify(body)}`);
  }
  return { seconds, peakMb: peak / 2 ** 20 };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
await measure("screenshot=true"); // the pool's Chromium is up before anything is timed
const shots: { seconds: number; peakMb: number }[] = [];
const audits: { seconds: number; peakMb: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  shots.push(await measure("screenshot=true&meta=false"));
  audits.push(await measure("insights.lighthouse=true&meta=false"));
}
const idle = await treeMemory(Deno.pid) / 2 ** 20;
const line = (name: string, runs: { seconds: number; peakMb: number }[]) =>
  `${name}: median ${median(runs.map((r) => r.seconds)).toFixed(2)} s, peak PSS ${
    Math.max(...runs.map((r) => r.peakMb)).toFixed(0)
  } MiB (linkpeek + its Chromiums)`;
const lines: string[] = [];
lines.push(
  `${RUNS} runs each, interleaved; idle afterwards: ${idle.toFixed(0)} MiB`,
);
lines.push(line("screenshot=true", shots));
lines.push(line("insights.lighthouse=true", audits));
lines.push(
  `lighthouse / screenshot: ${
    (median(audits.map((r) => r.seconds)) / median(shots.map((r) => r.seconds)))
      .toFixed(1)
  }x the time, +${
    (Math.max(...audits.map((r) => r.peakMb)) - Math.max(...shots.map((r) => r.peakMb))).toFixed(0)
  } MiB at peak`,
);
// deno-lint-ignore no-console
console.log(lines.join("\n"));
await handler.close();
await server.shutdown();
await Deno.remove(config.dataDir, { recursive: true });
