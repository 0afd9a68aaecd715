/**
 * /metrics under `deno task start`'s own permission flags (narrower than the tests' `-A`): the
 * series read from /proc are there, and agree with what this test reads from /proc itself.
 */
import assert from "node:assert/strict";
import { html, serve } from "../_fixtures.ts";
import { startMain } from "./_main_process.ts";
import { samples } from "./_prometheus.ts";

async function scrape(origin: string): Promise<Map<string, number>> {
  const response = await fetch(`${origin}/metrics`);
  assert.equal(response.status, 200);
  return samples(await response.text());
}

Deno.test("deno task start: /metrics has the process and Chromium series read from /proc", async (t) => {
  await using site = serve({ "/page": () => html("<title>Metrics page</title><h1>hi</h1>") });
  await using main = await startMain({ TRUSTED_TARGETS: `127.0.0.1:${site.port}` });

  await t.step("descriptors: open and the soft limit", async () => {
    const values = await scrape(main.origin);
    const open = values.get("process_open_fds");
    const max = values.get("process_max_fds");
    assert.ok(open !== undefined, "process_open_fds is exported");
    assert.ok(max !== undefined, "process_max_fds is exported");
    const limits = await Deno.readTextFile(`/proc/${main.child.pid}/limits`);
    const soft = Number(/^Max open files\s+(\d+)/m.exec(limits)![1]);
    assert.equal(max, soft);
    assert.ok(open >= 3 && open <= soft, `open fds ${open}`);
    for (const name of ["process_resident_memory_bytes", "process_cpu_seconds_total"]) {
      assert.ok(values.get(name)! > 0, name);
    }
  });

  await t.step("Chromium's process tree once a screenshot launched it", async () => {
    const answer = await fetch(
      `${main.origin}/?url=${encodeURIComponent(`${site.origin}/page`)}&screenshot&meta=false`,
    );
    const body = await answer.text();
    assert.equal(answer.status, 200, body);
    const values = await scrape(main.origin);
    const processes = values.get("linkpeek_browser_processes");
    assert.ok(processes !== undefined && processes >= 2, `Chromium runs ${processes} processes`);
    const rss = values.get("linkpeek_browser_resident_memory_bytes")!;
    const pss = values.get("linkpeek_browser_proportional_memory_bytes")!;
    assert.ok(rss > 10 * 1024 * 1024, `tree RSS ${rss}`);
    assert.ok(pss > 0 && pss <= rss, `PSS ${pss}, RSS ${rss}`);
  });
});
