/**
 * The HTTP surface, first in every request's path: main.ts's Deno.serve hands each request to
 * the handler made here, which gives it an id (for its log lines), tries a short route table
 * (the API at `/`, /oembed, /mcp, /health, /ready, /metrics, /openapi.json, /assets/, the
 * playground),
 * compresses the answer, turns any throw into the contract's error answer (lib/boundary.ts) and
 * writes the request's one log line.
 */
import type { Config } from "./config.ts";
import { ApiError } from "./errors.ts";
import { errorAnswer, type Exchange } from "./boundary.ts";
import { compress } from "./compress.ts";
import { inRequest, levelOfStatus, log } from "./log.ts";
import { clientIp, constantTimeEqual } from "./plans/mod.ts";
import { handleApi } from "./api/mod.ts";
import { handleOembed } from "./oembed_provider/mod.ts";
import { serveAsset } from "./api/assets.ts";
import { CORS_HEADERS, jsonResponse } from "./api/respond.ts";
import { createServices, type Services } from "./services.ts";
import { openApiDocument } from "./openapi.ts";
import { playgroundAsset, wantsPlayground } from "./playground/mod.ts";
import { type ApiHandler, handleMcp, MCP_PATH } from "./mcp/http.ts";

export interface ConnInfo {
  remoteAddr: string;
  /** The request arrived on PRO_PORT. */
  pro?: boolean;
}

export interface Handler {
  (request: Request, conn?: ConnInfo): Promise<Response>;
  services: Services;
  close(): Promise<void>;
}

function isLoopback(address: string): boolean {
  return /^127\./.test(address) || address === "::1" || /^::ffff:127\./i.test(address);
}

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

async function ready(services: Services): Promise<Response> {
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

/** A route answers, declines (null: the next route is tried), or throws for errorAnswer. */
type Route = (
  request: Request,
  url: URL,
  conn: ConnInfo,
  exchange: Exchange,
) => Promise<Response | null> | Response | null;

/** `self`: the whole handler, which /mcp's tool calls ask as any API client does. */
function routes(services: Services, self: ApiHandler): Route[] {
  const { config } = services;
  return [
    // Before the API's OPTIONS and GET-only rules: MCP is POST, with CORS of its own.
    (request, url, conn) =>
      url.pathname === MCP_PATH
        ? handleMcp({
          request,
          remoteAddr: conn.remoteAddr,
          arrivedOnProPort: conn.pro === true,
          config,
          api: self,
        })
        : null,
    (request) =>
      request.method === "OPTIONS"
        ? new Response(null, {
          status: 204,
          headers: {
            ...CORS_HEADERS,
            "access-control-allow-methods": "GET, HEAD, OPTIONS",
            "access-control-max-age": "86400",
          },
        })
        : null,
    (request) => {
      if (request.method === "GET" || request.method === "HEAD") return null;
      throw new ApiError("EMETHOD", `The method ${request.method} is not allowed: use GET.`, {
        headers: { allow: "GET, HEAD, OPTIONS" },
      });
    },
    (request, url, conn, exchange) => {
      if (url.pathname !== "/") return null;
      if (wantsPlayground(request, url)) return playgroundAsset("/", config.publicUrl);
      return handleApi(services, {
        exchange,
        remoteAddr: conn.remoteAddr,
        arrivedOnProPort: conn.pro === true,
      });
    },
    (_request, url, conn, exchange) =>
      url.pathname === "/oembed"
        ? handleOembed(services, {
          exchange,
          remoteAddr: conn.remoteAddr,
          arrivedOnProPort: !!conn.pro,
        })
        : null,
    (_request, url) =>
      url.pathname === "/health"
        ? jsonResponse({ status: "ok" }, 200, { "cache-control": "no-store" })
        : null,
    (request, url, conn) => {
      if (url.pathname !== "/ready" && url.pathname !== "/metrics") return null;
      if (!mayObserve(config, request, conn)) throw notFound(url);
      if (url.pathname === "/ready") return ready(services);
      return services.metrics.render({ browser: services.browser.stats() }).then((body) =>
        new Response(body, {
          headers: {
            "content-type": "text/plain; version=0.0.4; charset=utf-8",
            "cache-control": "no-store",
          },
        })
      );
    },
    (_request, url) =>
      url.pathname === "/openapi.json"
        ? jsonResponse(openApiDocument(config), 200, { ...CORS_HEADERS })
        : null,
    (_request, url) =>
      url.pathname.startsWith("/assets/") ? serveAsset(services, url.pathname) : null,
    (_request, url) => playgroundAsset(url.pathname, config.publicUrl),
  ];
}

function notFound(url: URL): ApiError {
  return new ApiError("ENOROUTE", `Not found: ${url.pathname}`);
}

/** Polled by orchestrators and scrapers every few seconds: their successes log at debug. */
const PROBES = new Set(["/health", "/ready", "/metrics"]);
const NAMED_PATHS = new Set([...PROBES, "/openapi.json", MCP_PATH]);

/**
 * What an answer's log line calls its route: linkpeek's own names, never the path (an asset
 * path is a capability for a private capture, and the API's query holds the target). "none":
 * no route took the request (unknown path, method not allowed).
 */
function routeName({ api, request, url, code }: Exchange): string {
  if (api) return url.pathname === "/oembed" ? "oembed" : "api";
  if (request.method === "OPTIONS") return "preflight";
  if (code === "EMETHOD") return "none";
  if (url.pathname.startsWith("/assets/")) return "assets";
  if (NAMED_PATHS.has(url.pathname)) return url.pathname.slice(1).replace(/\.json$/, "");
  return code === "ENOROUTE" ? "none" : "playground";
}

/** The answer's one log line, at the level of its outcome. */
function logAnswer(exchange: Exchange, response: Response): void {
  const { api } = exchange;
  const { status } = response;
  const probe = PROBES.has(exchange.url.pathname) && status < 400;
  log.answer(probe ? "debug" : levelOfStatus(status), {
    route: routeName(exchange),
    method: exchange.request.method,
    // The host only: paths and queries may carry a target's own tokens.
    target: api?.targetHost,
    plan: api?.plan,
    status,
    code: exchange.code,
    cache: api?.cacheStatus,
    fetchMode: api?.fetchMode,
    ms: Math.round(performance.now() - exchange.startedAt),
  });
}

/** The whole HTTP surface: a short route table, first match wins, default 404. */
export async function createHandler(config: Config): Promise<Handler> {
  const services = await createServices(config);
  const table = routes(services, (request, conn) => handler(request, conn));
  const answer = async (exchange: Exchange, conn: ConnInfo): Promise<Response> => {
    const { request, url } = exchange;
    try {
      for (const route of table) {
        // Most routes answer null at once: awaiting only real promises keeps turns off the hot path.
        let response = route(request, url, conn, exchange);
        if (response instanceof Promise) response = await response;
        if (response) return await compress(request, response);
      }
      throw notFound(url);
    } catch (error) {
      return await compress(request, errorAnswer(error, exchange));
    }
  };
  const handler = ((request: Request, conn: ConnInfo = { remoteAddr: "127.0.0.1" }) => {
    const exchange: Exchange = {
      request,
      url: new URL(request.url),
      requestId: crypto.randomUUID(),
      startedAt: performance.now(),
    };
    return inRequest(exchange.requestId, async () => {
      const response = await answer(exchange, conn);
      const { api } = exchange;
      if (api) {
        const seconds = (performance.now() - exchange.startedAt) / 1000;
        services.metrics.request({
          plan: api.plan,
          status: response.status,
          code: exchange.code ?? "",
        }, seconds);
      }
      logAnswer(exchange, response);
      return response;
    });
  }) as Handler;
  handler.services = services;
  handler.close = () => services.close();
  return handler;
}
