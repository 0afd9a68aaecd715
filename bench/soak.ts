/**
 * `deno task bench:soak [count]` (off in CI): screenshot and PDF requests (2,000 unless `count`
 * or SOAK_REQUESTS says otherwise) at 4 at once over loopback pages that are large, slow,
 * crashing, popup-opening and infinitely scrolling. Prints RSS after the first tenth and at the
 * end (the end within 10% of the first), and at the end open contexts, pages, Chromium
 * processes, file descriptors and temp files against their warm idle counts (after one
 * screenshot, one pdf and Chromium's one-time startup chores), each with its verdict.
 *
 * It runs itself again with TMPDIR set to a directory of its own, so that the temp files counted
 * are linkpeek's and its Chromium's alone, not other programs'.
 */
import { benchConfig } from "./_config.ts";
import { createHandler } from "../lib/handler/mod.ts";
import { setQuiet } from "../lib/util/log.ts";
import { conditions, fdCount, linkpeekChromium, mib, treeOf, treeRss, verdict } from "./_proc.ts";

const COUNT = Number(Deno.args[0] ?? Deno.env.get("SOAK_REQUESTS") ?? 2000);
const CONCURRENT = 4;

if (!Deno.env.get("SOAK_TMPDIR")) {
  const tmp = await Deno.makeTempDir({ prefix: "linkpeek-soak-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--v8-flags=--expose-gc",
        "--config",
        new URL("./deno.json", import.meta.url).pathname,
        import.meta.filename!,
        String(COUNT),
      ],
      env: { TMPDIR: tmp, SOAK_TMPDIR: tmp },
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const { code } = await child.status;
    Deno.exitCode = code;
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
  Deno.exit();
}

setQuiet(true);
const tmpDir = Deno.env.get("SOAK_TMPDIR")!;

const html = (body: string, status = 200) =>
  new Response(
    `<!doctype html><html><head><title>soak</title></head><body>${body}</body></html>`,
    {
      status,
      headers: { "content-type": "text/html; charset=utf-8" },
    },
  );
const LARGE = Array.from(
  { length: 4000 },
  (_, i) =>
    `<section><h2>Section ${i}</h2><p>${"Lorem ipsum dolor sit amet. ".repeat(8)}</p></section>`,
).join("");
const PAGES: Record<string, () => Response | Promise<Response>> = {
  "/plain": () => html("<h1>plain</h1><p>a small page</p>"),
  // ~1.4 MB of text, many screens tall.
  "/large": () => html(LARGE),
  "/slow": async () => {
    await new Promise((r) => setTimeout(r, 1500));
    return html("<h1>slow</h1>");
  },
  // V8's heap limit kills the tab (EBROWSER for that request only).
  "/crash": () =>
    html(`<p>bomb</p><script>const keep = [];
      while (true) keep.push(new Array(4e6).fill(Math.random()));</script>`),
  "/popups": () =>
    html(
      `<p>popups</p><script>for (let i = 0; i < 30; i++) window.open("/plain?popup=" + i);</script>`,
    ),
  // Grows forever as it scrolls (and on a timer, since nothing scrolls a capture).
  "/scroll": () =>
    html(`<div id=feed></div><script>
      const feed = document.getElementById("feed");
      const more = () => { for (let i = 0; i < 50; i++) feed.insertAdjacentHTML("beforeend",
        "<p>item " + feed.children.length + "</p>"); };
      more(); addEventListener("scroll", more); setInterval(more, 50);
    </script>`),
};
const MIX = [
  "/plain",
  "/large",
  "/slow",
  "/popups",
  "/scroll",
  "/plain",
  "/large",
  "/crash",
];

const site = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: () => {} },
  (request) => {
    const page = PAGES[new URL(request.url).pathname];
    return page ? page() : new Response("not found", { status: 404 });
  },
);
const config = await benchConfig(site.addr.port, {
  // The cache/asset budget bounds what the store keeps: 2,000 captures would not fit otherwise.
  CACHE_MAX_BYTES: String(64 * 1024 * 1024),
  REQUEST_TIMEOUT_MS: "15000",
});
const dataDir = config.dataDir;
const handler = await createHandler(config);
const api = async (query: string) => {
  const response = await handler(
    new Request(`http://127.0.0.1/${query}`),
    { remoteAddr: "127.0.0.1" },
  );
  return { status: response.status, body: await response.text() };
};

/** The pool's figures from /metrics, Chromium's from /proc, and the temp files. */
async function counts() {
  const { body } = await api("metrics");
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(body)?.[1]);
  const chromium = linkpeekChromium();
  return {
    "open contexts": metric("linkpeek_browser_contexts"),
    "pages in use": metric("linkpeek_browser_pages_in_use"),
    "Chromium processes": chromium === null ? 0 : treeOf(chromium).length,
    "Chromium fds": chromium === null ? 0 : fdCount(chromium),
    "deno fds": metric("process_open_fds"),
    "temp files": countFiles(tmpDir) - countFiles(dataDir),
  };
}
type Counts = Awaited<ReturnType<typeof counts>>;

/** Chromium's processes by what their flags make them (browser, renderer, a utility's service). */
function processKinds(): Record<string, number> {
  const chromium = linkpeekChromium();
  const kinds: Record<string, number> = {};
  for (const pid of chromium === null ? [] : treeOf(chromium)) {
    let kind = "gone";
    try {
      // Chromium rewrites its process title: one string of space-separated flags, not argv.
      const args = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split(/[\0 ]/);
      const flag = (name: string) =>
        args.find((arg) => arg.startsWith(`--${name}=`))?.slice(
          name.length + 3,
        );
      // A zombie (exited, not yet reaped) has no command line.
      kind = flag("utility-sub-type") ?? flag("type") ??
        (args[0] ? "browser" : "zombie");
    } catch {
      // exited meanwhile
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

function countFiles(dir: string): number {
  return filesUnder(dir).length;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    out.push(`${dir}/${entry.name}`);
    if (entry.isDirectory && !entry.isSymlink) {
      try {
        out.push(...filesUnder(`${dir}/${entry.name}`));
      } catch {
        // removed meanwhile
      }
    }
  }
  return out;
}

const TCP_STATES: Record<string, string> = {
  "01": "established",
  "06": "time_wait",
  "08": "close_wait",
  "0A": "listen",
  "04": "fin_wait1",
  "05": "fin_wait2",
  "09": "last_ack",
};

/** TCP state by socket inode, from /proc/net/tcp and tcp6. */
function tcpStates(): Map<string, string> {
  const states = new Map<string, string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of Deno.readTextFileSync(table).split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9) {
        states.set(fields[9]!, TCP_STATES[fields[3]!] ?? fields[3]!);
      }
    }
  }
  return states;
}

/** What this process's descriptors are (socket, pipe, anon_inode, file...), counted. */
function fdKinds(): Record<string, number> {
  const kinds: Record<string, number> = {};
  const states = tcpStates();
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    try {
      const link = Deno.readLinkSync(`/proc/self/fd/${entry.name}`);
      const socket = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      const kind = socket
        ? `socket ${states.get(socket) ?? "other"}`
        : /^(\w+):/.exec(link)?.[1] ?? (link.startsWith("/") ? "file" : link);
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    } catch {
      // closed meanwhile
    }
  }
  return kinds;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const target = (path: string) => encodeURIComponent(`http://127.0.0.1:${site.addr.port}${path}`);

let sequence = 0;
const outcomes = new Map<string, number>();
async function one(): Promise<void> {
  const n = sequence++;
  const path = MIX[n % MIX.length]!;
  const capture = n % 2 ? "pdf=true" : "screenshot=true";
  const { status, body } = await api(
    `?url=${target(`${path}?n=${n}`)}&${capture}&meta=false&force=true`,
  );
  const code = status === 200 ? "" : JSON.parse(body).code;
  const key = `${path} ${status}${code ? ` ${code}` : ""}`;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

async function run(total: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENT }, async () => {
    while (next++ < total) await one();
  }));
}

/**
 * Waits (at most 60 s) until nothing moves: no context open and the same counts for 3 s
 * (closed contexts' renderers, a PDF's print compositor and zombies not yet reaped take a
 * moment to go). Answers whether it got there.
 */
async function holdStill(): Promise<boolean> {
  const started = performance.now();
  let last = "";
  let since = started;
  while (performance.now() - started < 60_000) {
    const now = await counts();
    const text = JSON.stringify(now);
    if (text !== last || now["open contexts"] || now["pages in use"]) {
      last = text;
      since = performance.now();
    } else if (performance.now() - since >= 3000) return true;
    await sleep(500);
  }
  return false;
}

/**
 * Chromium's one-time startup chores, each on a timer from launch, never per request: a spare
 * metrics file for the profile's next run (BrowserMetrics-spare.pma, 90 s after launch) and a
 * utility process that rates the machine for on-device models (OnDeviceModelService, 2-3 min
 * after). Counted before they happen, they would pass for a file and a process leaked by the
 * requests in between. Waits (at most 5 min from launch) until both happened.
 */
async function startupChores(launchedAt: number): Promise<string> {
  const done = () => ({
    "BrowserMetrics-spare.pma": filesUnder(tmpDir).some((f) =>
      f.endsWith("/BrowserMetrics-spare.pma")
    ),
    OnDeviceModelService: Object.keys(processKinds()).some((kind) =>
      kind.includes("OnDeviceModelService")
    ),
  });
  while (
    performance.now() - launchedAt < 300_000 &&
    !Object.values(done()).every(Boolean)
  ) {
    await sleep(1000);
  }
  return Object.entries(done()).map(([name, seen]) => `${name} ${seen ? "seen" : "NOT seen"}`)
    .join(", ");
}

const rss = async () => {
  const deno = Deno.memoryUsage().rss;
  const chromium = await treeRss(linkpeekChromium());
  return { deno, chromium, total: deno + chromium };
};
const rssLine = (r: { deno: number; chromium: number; total: number }) =>
  `deno ${mib(r.deno)} + Chromium ${mib(r.chromium)} = ${mib(r.total)}`;
const say = (line: string) => {
  // deno-lint-ignore no-console
  console.log(line);
};
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

try {
  const started = performance.now();
  say(
    `soak: ${COUNT} requests (screenshot and pdf alternately, meta=false) at ${CONCURRENT} at ` +
      `once over ${Object.keys(PAGES).join(" ")}; ${conditions()}`,
  );
  // Warm idle: the browser launched, one screenshot and one pdf done, Chromium's startup chores
  // done, and nothing moving.
  await api(`?url=${target("/plain")}&screenshot=true&meta=false`);
  await api(`?url=${target("/plain")}&pdf=true&meta=false`);
  const launched = await counts();
  const chores = await startupChores(started);
  const still = await holdStill();
  const idle = await counts();
  const idleKinds = processKinds();
  const idleFiles = new Set(filesUnder(tmpDir));
  const idleFds = fdKinds();
  say(
    `idle counted warm, ${seconds(started)} after launch: one screenshot and one pdf done; ` +
      `Chromium's startup chores: ${chores}; counts ${still ? "held still 3 s" : "STILL MOVING"}`,
  );
  say(
    `  right after the warm-up (before the chores): ${JSON.stringify(launched)}`,
  );
  say(`  Chromium processes at idle: ${JSON.stringify(idleKinds)}`);

  const tenth = Math.max(1, Math.round(COUNT / 10));
  const running = performance.now();
  await run(tenth);
  await holdStill();
  const early = await rss();
  say(`RSS after the first ${tenth}: ${rssLine(early)}`);
  for (let done = tenth; done < COUNT;) {
    const chunk = Math.min(tenth, COUNT - done);
    await run(chunk);
    done += chunk;
    const now = await counts();
    say(
      `  ${done}/${COUNT} (${seconds(running)}, not settled): RSS ${rssLine(await rss())}; ` +
        `Chromium processes ${now["Chromium processes"]}, temp files ${now["temp files"]}, ` +
        `deno fds ${now["deno fds"]}`,
    );
  }
  const settled = await holdStill();
  const end = await rss();
  (globalThis as { gc?: () => void }).gc?.();
  await sleep(1000);
  const after = await counts();
  const growth = end.total / early.total - 1;
  say(
    `RSS at the end:${" ".repeat(String(tenth).length + 5)}${rssLine(end)} ` +
      `(${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%; target within 10%) ` +
      verdict(Math.abs(growth) <= 0.1),
  );
  say(
    `at the end (${settled ? "counts held still 3 s" : "counts STILL MOVING after 60 s"}) ` +
      `vs warm idle; target: back to idle:`,
  );
  for (const [name, value] of Object.entries(after)) {
    const was = idle[name as keyof Counts];
    say(
      `  ${name.padEnd(19)} ${String(value).padStart(4)} (idle ${was}) ${verdict(value <= was)}`,
    );
  }
  say(`Chromium processes at the end: ${JSON.stringify(processKinds())}`);
  say(
    `deno fds by kind: idle ${JSON.stringify(idleFds)}, end ${JSON.stringify(fdKinds())}`,
  );
  const newFiles = filesUnder(tmpDir).filter((f) => !idleFiles.has(f) && !f.startsWith(dataDir));
  say(
    `temp files new since idle (${newFiles.length}): ${
      newFiles.map((f) => f.slice(tmpDir.length)).slice(0, 15).join(" ") ||
      "none"
    }`,
  );
  say(
    `outcomes (page, status, code), ${COUNT} requests in ${seconds(running)}:`,
  );
  for (const [key, n] of [...outcomes].sort()) say(`  ${key}: ${n}`);
} finally {
  await handler.close();
  await site.shutdown();
  await Deno.remove(dataDir, { recursive: true });
}
