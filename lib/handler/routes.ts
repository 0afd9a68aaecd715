/**
 * The HTTP surface as data: every route once, with its method, path pattern, name and handler.
 * The router (createHandler) walks this table, the answer's log line takes its route name and
 * probe level from the entry that took the request, and the request metrics count the entries
 * marked `metered`.
 */
import type { Config } from "../config/mod.ts";
import { ApiError } from "../util/errors.ts";
import type { Exchange, RouteTag } from "./boundary.ts";
import { clientIp, constantTimeEqual } from "../plans/mod.ts";
import { handleApi } from "../api/mod.ts";
import { handleOembed } from "../oembed_endpoint/mod.ts";
import { serveAsset } from "../api/assets.ts";
import { CORS_HEADERS, jsonResponse } from "../api/respond.ts";
import type { ApiServices } from "../api/memo.ts";
import { openApiDocument } from "../openapi/mod.ts";
import { errorsPage } from "./errors_page.ts";
import { playgroundAsset, wantsPlayground } from "../playground/mod.ts";
import { handleMcp, MCP_PATH } from "../mcp/http.ts";

export interface ConnInfo {
  remoteAddr: string;
  /** The request arrived on PRO_PORT. */
  pro?: boolean;
}

/** What a route's handler is given. */
export interface RouteCall {
  services: ApiServices;
  request: Request;
  url: URL;
  conn: ConnInfo;
  exchange: Exchange;
  /** The whole handler, for a route that asks it again (MCP's tool calls are API requests). */
  self: (request: Request, conn: ConnInfo) => Promise<Response>;
}

export interface Route extends RouteTag {
  /**
   * GET also takes HEAD (Deno.serve leaves a HEAD answer's body out). ANY: the route answers
   * every method itself (MCP's POST, its own preflight and 405s); it adds none to ALLOWED_METHODS.
   */
  method: "GET" | "OPTIONS" | "ANY";
  /** "/x": that path; "/x/": every path under it; "*": any path. */
  pattern: string;
  /** Answers, declines (null: the next route is tried), or throws for errorAnswer. */
  handle(call: RouteCall): Promise<Response | null> | Response | null;
}

/** The route name of an answer that no route took (unknown path, method not allowed). */
export const NO_ROUTE = "none";

/**
 * /ready and /metrics: loopback, or anyone with METRICS_TOKEN as a bearer token. The client is
 * who X-Forwarded-For names when a trusted proxy sent the request, so a reverse proxy on the
 * same machine does not make every visitor look local.
 */
function mayObserve(config: Config, request: Request, conn: ConnInfo): boolean {
  const client = clientIp({
    remoteAddr: conn.remoteAddr,
    xForwardedFor: request.headers.get("x-forwarded-for"),
    trustedProxies: config.trustedProxies,
  });
  if (isLoopback(client)) return true;
  const token = config.metricsToken;
  const sent = request.headers.get("authorization") ?? "";
  return token !== null && constantTimeEqual(sent, `Bearer ${token}`);
}

function isLoopback(address: string): boolean {
  return /^127\./.test(address) || address === "::1" || /^::ffff:127\./i.test(address);
}

export function notFound(url: URL): ApiError {
  return new ApiError("ENOROUTE", `Not found: ${url.pathname}`);
}

function observed({ services, request, url, conn }: RouteCall): void {
  if (!mayObserve(services.config, request, conn)) throw notFound(url);
}

async function ready(services: ApiServices): Promise<Response> {
  const [browser, store] = await Promise.all([
    services.browser.ready().catch(() => false),
    services.store.health().then((h) => h.ok).catch(() => false),
  ]);
  const ok = browser && store;
  return jsonResponse(
    { status: ok ? "ready" : "unready", browser, store },
    ok ? 200 : 503,
    { "cache-control": "no-store" },
  );
}

async function metrics(services: ApiServices): Promise<Response> {
  const body = await services.metrics.render({ browser: services.browser.stats() });
  return new Response(body, {
    headers: {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}

/** First match wins; a request that no route takes is ENOROUTE. */
export const ROUTES: readonly Route[] = [
  {
    // Before the API's preflight: /mcp's CORS names an allowed origin, never `*`.
    method: "ANY",
    pattern: MCP_PATH,
    name: "mcp",
    handle: ({ services, request, conn, self }) =>
      handleMcp({
        request,
        remoteAddr: conn.remoteAddr,
        arrivedOnProPort: conn.pro === true,
        config: services.config,
        api: self,
      }),
  },
  {
    method: "OPTIONS",
    pattern: "*",
    name: "preflight",
    handle: () =>
      new Response(null, {
        status: 204,
        headers: {
          ...CORS_HEADERS,
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-max-age": "86400",
        },
      }),
  },
  {
    method: "GET",
    pattern: "/",
    name: "playground",
    handle: ({ services, request, url }) =>
      wantsPlayground(request, url) ? playgroundAsset("/", services.config.publicUrl) : null,
  },
  {
    method: "GET",
    pattern: "/",
    name: "api",
    metered: true,
    handle: ({ services, conn, exchange }) =>
      handleApi(services, {
        exchange,
        remoteAddr: conn.remoteAddr,
        arrivedOnProPort: conn.pro === true,
      }),
  },
  {
    method: "GET",
    pattern: "/oembed",
    name: "oembed",
    metered: true,
    handle: ({ services, conn, exchange }) =>
      handleOembed(services, {
        exchange,
        remoteAddr: conn.remoteAddr,
        arrivedOnProPort: conn.pro === true,
      }),
  },
  {
    method: "GET",
    pattern: "/errors",
    name: "errors",
    handle: () => errorsPage(),
  },
  {
    method: "GET",
    pattern: "/health",
    name: "health",
    probe: true,
    handle: () => jsonResponse({ status: "ok" }, 200, { "cache-control": "no-store" }),
  },
  {
    method: "GET",
    pattern: "/ready",
    name: "ready",
    probe: true,
    handle: (call) => {
      observed(call);
      return ready(call.services);
    },
  },
  {
    method: "GET",
    pattern: "/metrics",
    name: "metrics",
    probe: true,
    handle: (call) => {
      observed(call);
      return metrics(call.services);
    },
  },
  {
    method: "GET",
    pattern: "/openapi.json",
    name: "openapi",
    handle: ({ services }) =>
      jsonResponse(openApiDocument(services.config), 200, { ...CORS_HEADERS }),
  },
  {
    method: "GET",
    pattern: "/assets/",
    name: "assets",
    handle: async ({ services, url }) => {
      // A missing capture is answered here: no other route serves under /assets/.
      const asset = await serveAsset(services, url.pathname);
      if (!asset) throw notFound(url);
      return asset;
    },
  },
  {
    method: "GET",
    pattern: "*",
    name: "playground",
    handle: ({ services, url }) => playgroundAsset(url.pathname, services.config.publicUrl),
  },
];

/** Whether `route` takes a request with this method and path. */
export function routeMatches(route: Route, method: string, path: string): boolean {
  const sameMethod = route.method === method || route.method === "ANY" ||
    (route.method === "GET" && method === "HEAD");
  if (!sameMethod) return false;
  return pathMatches(route, path);
}

function pathMatches(route: Route, path: string): boolean {
  if (route.pattern === "*") return true;
  return route.pattern.endsWith("/") && route.pattern !== "/"
    ? path.startsWith(route.pattern)
    : path === route.pattern;
}

/** The methods some route takes, for `allow` and CORS preflights: "GET, HEAD, OPTIONS". */
export const ALLOWED_METHODS = [
  ...new Set(
    ROUTES.flatMap((r) =>
      r.method === "ANY" ? [] : r.method === "GET" ? ["GET", "HEAD"] : [r.method]
    ),
  ),
].sort().join(", ");

// Read on every request: split once.
const ALLOWED = new Set(ALLOWED_METHODS.split(", "));
const ANY_METHOD_ROUTES = ROUTES.filter((route) => route.method === "ANY");

/** Whether a request with this method may reach a route: one of ALLOWED_METHODS, or an ANY path. */
export function methodAllowed(method: string, path: string): boolean {
  return ALLOWED.has(method) || ANY_METHOD_ROUTES.some((route) => pathMatches(route, path));
}
