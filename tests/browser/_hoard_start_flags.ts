/**
 * Run by memory_test.ts under `deno task start`'s own permission flags: one visit of the
 * hoarding page at argv[0], then one of the plain page; prints the outcome of each as JSON.
 */
import { BrowserPool } from "../../lib/browser/mod.ts";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { testConfig } from "../_fixtures.ts";

const [origin, port] = [Deno.args[0]!, Number(Deno.args[1])];
const config = testConfig({ trustPorts: [port] });
await using pool = new BrowserPool({ config, fetcher: new GuardedFetcher({ config }) });
const outcome = (visit: Promise<unknown>) =>
  visit.then(() => "ok", (error) => (error as { code?: string }).code ?? String(error));
const hoard = await outcome(
  pool.visit(`${origin}/hoard`, { html: true, waitForSelector: "#done", timeoutMs: 60_000 }),
);
const next = await outcome(pool.visit(`${origin}/`, { html: true }));
// The parent test reads this line.
// deno-lint-ignore no-console
console.log(JSON.stringify({ hoard, next }));
