/**
 * /metrics as Prometheus sees it: `promtool check metrics` on a live answer, the guard refusal
 * counter by kind and stage, and the process, runtime and Chromium series checked against /proc.
 */
import assert from "node:assert/strict";
import { samples } from "./_prometheus.ts";
import type { Connector } from "../../lib/guard/types.ts";
import { REFUSAL_KINDS, REFUSAL_STAGES } from "../../lib/guard/refusal.ts";
import { html, q, serve, type TestApp, testApp, testConfig } from "../_fixtures.ts";

const CHROMIUM = "/usr/bin/chromium";

async function scrape(app: TestApp): Promise<string> {
  const response = await app.handler(new Request("http://localhost:3000/metrics"), {
    remoteAddr: "127.0.0.1",
  });
  assert.equal(response.status, 200);
  return await response.text();
}

const refusalSeries = (kind: string, stage: string) =>
  `linkpeek_guard_refusals_total{kind="${kind}",stage="${stage}"}`;

/** Every refusal series whose value changed between two scrapes, with the change. */
function refusalChanges(before: Map<string, number>, after: Map<string, number>): string[] {
  const changed: string[] = [];
  for (const kind of REFUSAL_KINDS) {
    for (const stage of REFUSAL_STAGES) {
      const name = refusalSeries(kind, stage);
      const delta = after.get(name)! - before.get(name)!;
      if (delta !== 0) changed.push(`${kind}/${stage} +${delta}`);
    }
  }
  return changed;
}

async function promtool(text: string): Promise<{ code: number; output: string }> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("promtool", {
      args: ["check", "metrics"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new Error(
      `promtool is missing (apt-get install prometheus; .ci/run installs it): ${error}`,
    );
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, output: (decode(stdout) + decode(stderr)).trim() };
}

/** Whatever address the guard lets through is dialled on `port`: nothing leaves loopback. */
function everythingTo(port: number, except: Record<string, number> = {}): Connector {
  return (address, wanted) => ({
    host: "127.0.0.1",
    port: except[`${address}:${wanted}`] ?? port,
  });
}

Deno.test("promtool check metrics passes on a live /metrics with no warning", async () => {
  await using site = serve({ "/page": () => html("<title>T</title>") });
  await using app = await testApp(
    testConfig({ trustPorts: [site.port], env: { CHROMIUM_PATH: CHROMIUM } }),
  );
  // Fill every family: a success, a cache hit, an error, a refusal, a running browser.
  for (const query of [q(`${site.origin}/page`, "&ping=false"), q(`${site.origin}/page`)]) {
    await (await app.get(query)).body?.cancel();
  }
  await (await app.get(q(`${site.origin}/page`, "&ping=false"))).body?.cancel();
  await (await app.get("?url=http://localhost/")).body?.cancel();
  assert.equal(await app.handler.services.browser.ready(), true);

  const text = await scrape(app);
  const result = await promtool(text);
  assert.equal(result.code, 0, `promtool: ${result.output}\n${text}`);
  assert.equal(result.output, "", "promtool printed warnings");

  const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  for (
    const family of [
      "linkpeek_guard_refusals_total counter",
      "process_resident_memory_bytes gauge",
      "process_cpu_seconds_total counter",
      "process_open_fds gauge",
      "process_max_fds gauge",
      "deno_heap_used_bytes gauge",
      "deno_heap_total_bytes gauge",
      "deno_event_loop_delay_seconds histogram",
      "linkpeek_browser_processes gauge",
      "linkpeek_browser_resident_memory_bytes gauge",
      "linkpeek_browser_proportional_memory_bytes gauge",
    ]
  ) {
    assert.ok(families.includes(family), `missing ${family}`);
  }
  // Every family has its HELP.
  for (const name of families.map((f) => f.split(" ")[0])) {
    assert.match(text, new RegExp(`^# HELP ${name} \\S`, "m"), `no HELP for ${name}`);
  }
});

Deno.test("promtool is not a rubber stamp: it flags a metric without HELP", async () => {
  const result = await promtool("# TYPE bare_total counter\nbare_total 1\n");
  assert.match(result.output, /no help text/);
});

Deno.test("a refused target counts once under its kind and stage, with no host in the labels", async (t) => {
  await using canary = serve({ "/": () => html("<title>canary</title>") });
  await using site = serve({
    "/hop": () => new Response(null, { status: 302, headers: { location: "http://10.0.0.9/" } }),
    "/page": () => html(`<title>page</title><img src="http://127.0.0.1:${canary.port}/pixel.png">`),
  });
  const config = testConfig({ trustPorts: [site.port, 3000], env: { CHROMIUM_PATH: CHROMIUM } });
  const connector = everythingTo(canary.port, { [`127.0.0.1:${site.port}`]: site.port });
  const resolver = (host: string) =>
    Promise.resolve(
      ({ "intranet.test": ["192.168.0.7"], "weird.test": ["not-an-address"] } as Record<
        string,
        string[]
      >)[host] ?? [],
    );
  await using app = await testApp(config, { resolver, connector });

  const cases: [string, string, string][] = [
    ["http://10.1.2.3/", "private", "request"],
    ["http://intranet.test/", "private", "request"],
    [`http://127.0.0.1:${canary.port}/`, "loopback", "request"],
    ["http://[::ffff:127.0.0.1]/", "embedded_ipv4", "request"],
    ["http://[64:ff9b::a00:1]/", "embedded_ipv4", "request"],
    ["http://169.254.169.254/latest/meta-data/", "link_local", "request"],
    ["http://[fe80::1]/", "link_local", "request"],
    ["http://224.0.0.251/", "multicast", "request"],
    ["http://0.0.0.0/", "unspecified", "request"],
    ["http://192.0.2.10/", "documentation", "request"],
    ["http://240.0.0.1/", "reserved", "request"],
    ["http://localhost/", "localhost_name", "request"],
    ["http://weird.test/", "not_an_ip", "request"],
    ["http://127.0.0.1:3000/", "own_port", "request"],
    [`${site.origin}/hop`, "private", "redirect"],
  ];
  for (const [target, kind, stage] of cases) {
    await t.step(`${target} -> ${kind}/${stage}`, async () => {
      const before = samples(await scrape(app));
      const { status, body } = await app.json(q(target, "&ping=false"));
      assert.equal(status, 400);
      assert.equal(body.code, "EFORBIDDENURL");
      const after = samples(await scrape(app));
      assert.deepEqual(refusalChanges(before, after), [`${kind}/${stage} +1`]);
    });
  }

  await t.step("a page's image on a forbidden address -> loopback/browser", async () => {
    const before = samples(await scrape(app));
    const { status, body } = await app.json(q(`${site.origin}/page`, "&screenshot&meta=false"));
    assert.equal(status, 200, JSON.stringify(body));
    const after = samples(await scrape(app));
    assert.deepEqual(refusalChanges(before, after), ["loopback/browser +1"]);
  });

  await t.step("labels hold only kinds and stages, never a host or URL", async () => {
    const text = await scrape(app);
    const labels = [...text.matchAll(/^linkpeek_guard_refusals_total\{([^}]*)\}/gm)].map((m) =>
      m[1]
    );
    assert.equal(labels.length, REFUSAL_KINDS.length * REFUSAL_STAGES.length);
    for (const label of labels) {
      assert.match(label!, /^kind="[a-z_0-9]+",stage="(request|redirect|browser)"$/);
    }
    assert.doesNotMatch(text, /intranet|weird\.test|10\.1\.2\.3|169\.254/);
  });
  assert.equal(canary.hits, 0, "nothing reached the canary");
});

/** Chromium's process tree from each process's task/<tid>/children, not from parent pids. */
async function childrenTree(pid: number): Promise<number[]> {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for await (const task of Deno.readDir(`/proc/${tree[i]}/task`)) {
      const text = await Deno.readTextFile(`/proc/${tree[i]}/task/${task.name}/children`)
        .catch(() => "");
      tree.push(...text.split(" ").filter(Boolean).map(Number));
    }
  }
  return tree;
}

Deno.test("process, runtime and Chromium series agree with /proc", async (t) => {
  await using app = await testApp(testConfig({ env: { CHROMIUM_PATH: CHROMIUM } }));

  await t.step("memory and file descriptors", async () => {
    const values = samples(await scrape(app));
    const rss = values.get("process_resident_memory_bytes")!;
    assert.ok(rss > values.get("deno_heap_used_bytes")!, "RSS holds the heap");
    assert.ok(values.get("deno_heap_total_bytes")! >= values.get("deno_heap_used_bytes")!);
    const fds = values.get("process_open_fds")!;
    assert.ok(fds >= 3 && fds <= values.get("process_max_fds")!, `open fds ${fds}`);
    assert.ok(values.get("process_cpu_seconds_total")! > 0);
    assert.equal(values.get("linkpeek_browser_processes"), 0, "no browser launched yet");
  });

  await t.step("an open file shows in process_open_fds", async () => {
    const before = samples(await scrape(app)).get("process_open_fds")!;
    using _file = await Deno.open(Deno.execPath());
    const during = samples(await scrape(app)).get("process_open_fds")!;
    assert.equal(during, before + 1, `${before} -> ${during}`);
  });

  await t.step("Chromium's processes and their memory", async () => {
    assert.equal(await app.handler.services.browser.ready(), true);
    const pid = app.handler.services.browser.stats().pid!;
    // The tree is counted while idle; a process starting or ending meanwhile shows as a
    // difference between the two independent counts around the scrape, and is retried.
    for (let attempt = 1;; attempt++) {
      const first = (await childrenTree(pid)).length;
      const values = samples(await scrape(app));
      const last = (await childrenTree(pid)).length;
      if (first !== last && attempt < 10) continue;
      assert.equal(values.get("linkpeek_browser_processes"), last);
      assert.ok(last >= 2, `Chromium runs ${last} processes`);
      const own = await Deno.readTextFile(`/proc/${pid}/status`);
      const browserRss = Number(/^VmRSS:\s+(\d+)/m.exec(own)![1]) * 1024;
      const rss = values.get("linkpeek_browser_resident_memory_bytes")!;
      const pss = values.get("linkpeek_browser_proportional_memory_bytes")!;
      assert.ok(rss > browserRss, `tree RSS ${rss} vs the browser process alone ${browserRss}`);
      assert.ok(pss > 0 && pss <= rss, `PSS ${pss}, RSS ${rss}`);
      break;
    }
  });
});

Deno.test("a blocked event loop shows in deno_event_loop_delay_seconds", async () => {
  await using app = await testApp(testConfig());
  const countAbove = (values: Map<string, number>, le: string) =>
    values.get("deno_event_loop_delay_seconds_count")! -
    values.get(`deno_event_loop_delay_seconds_bucket{le="${le}"}`)!;
  const before = samples(await scrape(app));
  // Busy for 300 ms: the sampler's timer, due within 100 ms, fires at least 200 ms late.
  const end = performance.now() + 300;
  while (performance.now() < end) { /* block the loop */ }
  let after = before;
  while (
    after.get("deno_event_loop_delay_seconds_count")! <=
      before.get("deno_event_loop_delay_seconds_count")!
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = samples(await scrape(app));
  }
  // At least the one late sample (a busy machine may add stalls of its own).
  assert.ok(countAbove(after, "0.1") - countAbove(before, "0.1") >= 1);
});
