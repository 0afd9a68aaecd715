/**
 * A page's memory is bounded by BROWSER_PAGE_MEMORY_MB (default 1024), ArrayBuffers included
 * (V8's heap flag does not count them): a page filling 1.5 GB has its renderer killed and is
 * answered as a crashed tab (EBROWSER), and the next visit works.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { poolFor } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

/** 24 buffers of 64 MB, each written through so that it is resident, all kept. */
const HOARDER = `<!doctype html><title>hoarder</title><p>hoarding</p><script>
const kept = [];
for (let i = 0; i < 24; i++) {
  const buffer = new Uint8Array(64 * 1024 * 1024);
  buffer.fill(1);
  kept.push(buffer);
}
globalThis.kept = kept;
document.body.insertAdjacentHTML("beforeend", "<p id=done>" + kept.length * 64 + " MB</p>");
</script>`;

Deno.test("a page holding 1.5 GB of ArrayBuffers is killed and answered EBROWSER; the next visit works", async () => {
  await using site = serve({
    "/hoard": () => html(HOARDER),
    "/": () => html("<!doctype html><title>ok</title><p>ok</p>"),
  });
  const config = testConfig({ trustPorts: [site.port] });
  assert.equal(config.browserPageMemoryMb, 1024);
  await using pool = poolFor(config);
  const pid = await pool.ready().then(() => pool.stats().pid);
  await assert.rejects(
    pool.visit(`${site.origin}/hoard`, { html: true, waitForSelector: "#done", timeoutMs: 60_000 }),
    (error: unknown) => {
      assert.ok(error instanceof ApiError, String(error));
      assert.equal(error.code, "EBROWSER", error.message);
      assert.equal(error.status, 503);
      return true;
    },
  );
  const next = await pool.visit(`${site.origin}/`, { html: true });
  assert.match(next.html!, /<p>ok<\/p>/);
  assert.equal(pool.stats().pid, pid, "the browser itself was not replaced");
  await pool.settled();
  assert.equal(pool.stats().contexts, 0);
});

Deno.test("the bound holds under deno task start's own permissions", async () => {
  await using site = serve({
    "/hoard": () => html(HOARDER),
    "/": () => html("<!doctype html><title>ok</title><p>ok</p>"),
  });
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)))
    .tasks as Record<string, string>;
  const flags = (tasks.start ?? "").split(" ").filter((word) => word.startsWith("--allow-"));
  assert.ok(!flags.includes("--allow-all") && flags.length > 0, tasks.start ?? "no start task");
  const script = new URL("./_hoard_start_flags.ts", import.meta.url).pathname;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, script, site.origin, String(site.port)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(run.stdout).trim().split("\n").at(-1) ?? "";
  assert.equal(run.code, 0, new TextDecoder().decode(run.stderr).slice(-2000));
  assert.deepEqual(JSON.parse(out), { hoard: "EBROWSER", next: "ok" });
});

Deno.test("BROWSER_PAGE_MEMORY_MB sets the limit and refuses nonsense", () => {
  assert.equal(testConfig({ env: { BROWSER_PAGE_MEMORY_MB: "512" } }).browserPageMemoryMb, 512);
  assert.throws(
    () => testConfig({ env: { BROWSER_PAGE_MEMORY_MB: "64" } }),
    /BROWSER_PAGE_MEMORY_MB/,
  );
});
