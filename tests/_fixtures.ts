/**
 * What every test builds on: one loopback server (`serve`), one config (`testConfig`), the
 * resolver and connector that map public names and addresses onto loopback, and the app over
 * the real handler (`testApp`). Nothing here can reach beyond loopback: the resolver answers
 * from a table, the connector only ever returns 127.0.0.1, and servers listen on 127.0.0.1.
 */
import { join } from "node:path";
import { type Config, loadConfig } from "../lib/config/mod.ts";
import type { Connector, Resolver } from "../lib/guard/types.ts";
import { DnsError } from "../lib/guard/resolve.ts";
import { createHandler, type Handler } from "../lib/handler/mod.ts";
import type { ServiceHooks } from "../lib/services/mod.ts";
import { setQuiet } from "../lib/util/log.ts";

// Request log lines would drown the test report; tests/ops checks the log itself.
setQuiet(true);

/** A public address with no documentation meaning; always mapped onto loopback in tests. */
export const PUBLIC_IP = "93.184.216.34";
export const PUBLIC_IP_2 = "93.184.216.35";
export const PUBLIC_IP6 = "2606:2800:220:1:248:1893:25c8:1946";

/** A request a fixture saw (a snapshot: Request objects die with their connection). */
export interface Seen {
  method: string;
  /** The path alone. */
  path: string;
  /** Path and query, as the request line had them. */
  target: string;
  headers: Record<string, string>;
}

export interface Fixture extends AsyncDisposable {
  port: number;
  origin: string;
  /** Requests seen so far. */
  hits: number;
  /** Every request seen, in order. */
  seen: Seen[];
  /** The paths of `seen`, in order. */
  paths: string[];
  /** The last request seen. */
  last: Seen | null;
}

export type Route = (request: Request, fixture: Fixture) => Response | Promise<Response>;
export type Routes = Record<string, Route>;

/**
 * An HTTP server on 127.0.0.1 that records each request, then answers with `handler`, or with
 * the route for its path (unknown paths answer 404). With `tls`, it speaks HTTPS.
 */
export function serve(
  handler: Route | Routes = {},
  tls: { cert: string; key: string } | null = null,
): Fixture {
  const route: Route = typeof handler === "function" ? handler : (request, fixture) => {
    const found = handler[new URL(request.url).pathname];
    return found ? found(request, fixture) : new Response("not found", { status: 404 });
  };
  const fixture = { hits: 0, seen: [], paths: [], last: null } as unknown as Fixture;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", ...tls, onListen() {} },
    (request) => {
      const url = new URL(request.url);
      fixture.last = {
        method: request.method,
        path: url.pathname,
        target: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
      };
      fixture.hits++;
      fixture.seen.push(fixture.last);
      fixture.paths.push(url.pathname);
      return route(request, fixture);
    },
  );
  fixture.port = server.addr.port;
  fixture.origin = `${tls ? "https" : "http"}://127.0.0.1:${server.addr.port}`;
  fixture[Symbol.asyncDispose] = () => server.shutdown();
  return fixture;
}

export const html = (body: string, init: ResponseInit = {}) =>
  new Response(body, {
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...(init.headers ?? {}) },
  });

export interface TestConfigOptions extends Partial<Config> {
  /** Loopback ports (on 127.0.0.1) the guard lets through, as TRUSTED_TARGETS would. */
  trustPorts?: number[];
  /** Environment variables, read as at start-up. */
  env?: Record<string, string>;
}

/**
 * The configuration as start-up makes it from `env`, with a data dir of its own (created by
 * whatever first stores something; testApp removes it), Chromium where CHROMIUM_PATH says,
 * `trustPorts` trusted, and `overrides` set last.
 */
export function testConfig(options: TestConfigOptions = {}): Config {
  const { trustPorts, env = {}, ...overrides } = options;
  const chromium = Deno.env.get("CHROMIUM_PATH");
  const config = loadConfig({
    DATA_DIR: join(Deno.env.get("TMPDIR") ?? "/tmp", `linkpeek-test-${crypto.randomUUID()}`),
    ...(chromium ? { CHROMIUM_PATH: chromium } : {}),
    ...env,
  });
  if (trustPorts) {
    config.trustedTargets = trustPorts.map((port) => ({ network: "127.0.0.1", prefix: 32, port }));
  }
  return { ...config, ...overrides };
}

/** Names to addresses; anything else fails like NXDOMAIN. Counts lookups per name. */
export function tableResolver(
  table: Record<string, string[]>,
): Resolver & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const resolver = (host: string) => {
    calls[host] = (calls[host] ?? 0) + 1;
    const found = table[host];
    return found ? Promise.resolve(found) : Promise.reject(new DnsError(host, "ENOTFOUND"));
  };
  return Object.assign(resolver, { calls });
}

/**
 * address (any port) or "address:port" onto a loopback port. Unmapped addresses throw, so a
 * test can never dial anything real. Records every (address, port) it was asked for.
 */
export function loopbackConnector(
  table: Record<string, number>,
): Connector & { dialled: string[] } {
  const dialled: string[] = [];
  const connector = (address: string, port: number) => {
    dialled.push(`${address}:${port}`);
    const to = table[`${address}:${port}`] ?? table[address];
    if (to === undefined) throw new Error(`test connector: ${address}:${port} is not mapped`);
    return { host: "127.0.0.1", port: to };
  };
  return Object.assign(connector, { dialled });
}

/** A parsed JSON answer: tests read nested members freely and assert on their values. */
// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

export interface TestApp extends AsyncDisposable {
  handler: Handler;
  get(query: string, init?: RequestInit): Promise<Response>;
  json(
    query: string,
    init?: RequestInit,
  ): Promise<{ status: number; headers: Headers; body: Json }>;
}

/**
 * The real handler over `config`, asked as a client on loopback asks it; `hooks` inject the
 * loopback resolver and connector (tableResolver, loopbackConnector) or observers.
 */
export async function testApp(config: Config, hooks: ServiceHooks = {}): Promise<TestApp> {
  const handler = await createHandler(config, hooks);
  const get = (query: string, init: RequestInit = {}) =>
    handler(new Request(`http://localhost:3000/${query}`, init), { remoteAddr: "127.0.0.1" });
  return {
    handler,
    get,
    async json(query, init) {
      const response = await get(query, init);
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    async [Symbol.asyncDispose]() {
      await handler.close();
      await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
    },
  };
}

export const q = (url: string, extra = "") => `?url=${encodeURIComponent(url)}${extra}`;

/**
 * Polls `condition` every 20 ms until it holds or `ms` pass (log lines are written in batches,
 * sockets close on their own turn); whether it held in the end.
 */
export async function waitFor(condition: () => boolean, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}
