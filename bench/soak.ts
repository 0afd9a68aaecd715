/**
 * `deno task bench:soak [count]` (off in CI): screenshot and PDF requests (2,000 unless `count`
 * or SOAK_REQUESTS says otherwise) at 4 at once over loopback pages that are large, slow,
 * crashing, popup-opening and infinitely scrolling. Prints RSS after the first tenth and at the
 * end (the end within 10% of the first), and at the end open contexts, pages, Chromium
 * processes, file descriptors and temp files against their idle counts.
 *
 * It runs itself again with TMPDIR set to a directory of its own, so that the temp files counted
 * are linkpeek's and its Chromium's alone, not other programs'.
 */
import { benchConfig } from "./_config.ts";
import { createHandler } from "../lib/handler.ts";
import { setQuiet } from "../lib/log.ts";
import { conditions, linkpeekChromium, mib, treeOf, treeRss } from "./_proc.ts";

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

/** The pool's figures from /metrics, plus this process's own. */
async function counts() {
  const { body } = await api("metrics");
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(body)?.[1]);
  const chromium = linkpeekChromium();
  return {
    contexts: metric("linkpeek_browser_contexts"),
    pages: metric("linkpeek_browser_pages_in_use"),
    "Chromium processes": chromium === null ? 0 : treeOf(chromium).length,
    "deno fds": metric("process_open_fds"),
    "temp files": countFiles(tmpDir) - countFiles(dataDir),
  };
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

const rss = async () => {
  const deno = Deno.memoryUsage().rss;
  const chromium = await treeRss(linkpeekChromium());
  return { deno, chromium, total: deno + chromium };
};

let sequence = 0;
const outcomes = new Map<string, number>();
async function one(): Promise<void> {
  const n = sequence++;
  const path = MIX[n % MIX.length]!;
  const capture = n % 2 ? "pdf=true" : "screenshot=true";
  const target = encodeURIComponent(
    `http://127.0.0.1:${site.addr.port}${path}?n=${n}`,
  );
  const { status, body } = await api(
    `?url=${target}&${capture}&meta=false&force=true`,
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
 * Waits (at most 15 s) until nothing moves: contexts closed and the same counts twice, 500 ms
 * apart (the pool closes contexts after answering and opens its spare meanwhile; /metrics and
 * /proc read the moment).
 */
const settle = async () => {
  let last = "";
  for (let i = 0; i < 30; i++) {
    const now = await counts();
    const text = JSON.stringify(now);
    if (now.contexts === 0 && text === last) return;
    last = text;
    await new Promise((r) => setTimeout(r, 500));
  }
};

try {
  const started = performance.now();
  // Idle: the browser launched, one visit done and settled.
  await api(
    `?url=${
      encodeURIComponent(`http://127.0.0.1:${site.addr.port}/plain`)
    }&screenshot=true&meta=false`,
  );
  await settle();
  const launched = await counts();
  const first = Math.max(1, Math.round(COUNT / 10));
  await run(first);
  await settle();
  const early = await rss();
  // Idle is counted once warm: Chromium writes its profile's files in its first minute.
  const idle = await counts();
  const idleFiles = new Set(filesUnder(tmpDir));
  const idleFds = fdKinds();
  await run(COUNT - first);
  await settle();
  const end = await rss();
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  const after = await counts();
  const growth = end.total / early.total - 1;
  const lines = [
    `soak: ${COUNT} requests (screenshot and pdf alternately, meta=false) at ${CONCURRENT} at once ` +
    `over ${Object.keys(PAGES).join(" ")} in ${
      ((performance.now() - started) / 1000).toFixed(0)
    } s; ${conditions()}`,
    `RSS after the first ${first}: deno ${mib(early.deno)} + Chromium ${mib(early.chromium)} = ${
      mib(early.total)
    }`,
    `RSS at the end:        deno ${mib(end.deno)} + Chromium ${mib(end.chromium)} = ${
      mib(end.total)
    }` +
    ` (${(growth * 100).toFixed(1)}%; target within 10%: ${
      Math.abs(growth) <= 0.1 ? "PASS" : "NOT MET"
    })`,
    `right after launch: ${JSON.stringify(launched)}`,
    `at the end vs idle (counted after the first ${first}):`,
    ...Object.entries(after).map(([name, value]) => {
      const was = idle[name as keyof typeof idle];
      return `  ${name.padEnd(19)} ${String(value).padStart(4)} (idle ${was}) ${
        value <= was ? "PASS" : "NOT MET"
      }`;
    }),
    `deno fds by kind: idle ${JSON.stringify(idleFds)}, end ${JSON.stringify(fdKinds())}`,
    `temp files new since idle: ${
      filesUnder(tmpDir).filter((f) => !idleFiles.has(f) && !f.startsWith(dataDir))
        .map((f) => f.slice(tmpDir.length)).slice(0, 15).join(" ")
    }`,
    "outcomes (page, status, code):",
    ...[...outcomes].sort().map(([key, n]) => `  ${key}: ${n}`),
  ];
  // deno-lint-ignore no-console
  console.log(lines.join("\n"));
} finally {
  await handler.close();
  await site.shutdown();
  await Deno.remove(dataDir, { recursive: true });
}
