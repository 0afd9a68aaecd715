/** Loopback servers and handlers for API-level tests. Nothing here listens beyond 127.0.0.1. */
import { type Config, loadConfig } from "../lib/config.ts";
import { createHandler, type Handler } from "../lib/handler.ts";
import { setQuiet } from "../lib/log.ts";

// Request log lines would drown the test report; tests/ops checks the log itself.
setQuiet(true);

export type Routes = Record<string, (request: Request) => Response | Promise<Response>>;

export interface TestServer extends AsyncDisposable {
  port: number;
  origin: string;
  /** Requests seen, by path. */
  hits: string[];
}

/** A target (or canary) on 127.0.0.1; unknown paths answer 404. */
export function serveRoutes(routes: Routes = {}): TestServer {
  const hits: string[] = [];
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      hits.push(path);
      const route = routes[path];
      return route ? await route(request) : new Response("not found", { status: 404 });
    },
  );
  const port = server.addr.port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    hits,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

export const html = (body: string, init: ResponseInit = {}) =>
  new Response(body, {
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...(init.headers ?? {}) },
  });

/** A config with embedded state in a fresh temp dir and the given loopback ports trusted. */
export function testConfig(
  options: { trustPorts?: number[]; env?: Record<string, string> } = {},
): Config {
  const config = loadConfig({
    DATA_DIR: Deno.makeTempDirSync({ prefix: "linkpeek-test-" }),
    ...(options.env ?? {}),
  });
  config.trustedTargets = (options.trustPorts ?? []).map((port) => ({
    network: "127.0.0.1",
    prefix: 32,
    port,
  }));
  return config;
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

export async function testApp(config: Config): Promise<TestApp> {
  const handler = await createHandler(config);
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
