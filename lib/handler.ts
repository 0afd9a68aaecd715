import type { Config } from "./config.ts";
import { ApiError } from "./errors.ts";
import { compress } from "./compress.ts";
import { clientIp, constantTimeEqual } from "./plans/mod.ts";
import { handleApi } from "./api/mod.ts";
import { serveAsset } from "./api/assets.ts";
import { CORS_HEADERS, jsonResponse, plainError } from "./api/respond.ts";
import { createServices, type Services } from "./services.ts";
import { openApiDocument } from "./openapi.ts";
import { playgroundAsset, wantsPlayground } from "./playground/mod.ts";

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

type Route = (
  request: Request,
  url: URL,
  conn: ConnInfo,
) => Promise<Response | null> | Response | null;

function routes(services: Services): Route[] {
  const { config } = services;
  return [
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
    (request) =>
      request.method !== "GET" && request.method !== "HEAD"
        ? plainError(
          new ApiError("EMETHOD", `The method ${request.method} is not allowed: use GET.`, {
            headers: { allow: "GET, HEAD, OPTIONS" },
          }),
        )
        : null,
    (request, url, conn) => {
      if (url.pathname !== "/") return null;
      if (wantsPlayground(request, url)) return playgroundAsset("/");
      return handleApi(services, {
        request,
        url,
        requestId: crypto.randomUUID(),
        remoteAddr: conn.remoteAddr,
        arrivedOnProPort: conn.pro === true,
      });
    },
    (_request, url) =>
      url.pathname === "/health"
        ? jsonResponse({ status: "ok" }, 200, { "cache-control": "no-store" })
        : null,
    (request, url, conn) => {
      if (url.pathname !== "/ready" && url.pathname !== "/metrics") return null;
      if (!mayObserve(config, request, conn)) {
        return plainError(new ApiError("ENOROUTE", `Not found: ${url.pathname}`));
      }
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
    (_request, url) => playgroundAsset(url.pathname),
  ];
}

/** The whole HTTP surface: a short route table, first match wins, default 404. */
export async function createHandler(config: Config): Promise<Handler> {
  const services = await createServices(config);
  const table = routes(services);
  const handler = (async (request: Request, conn: ConnInfo = { remoteAddr: "127.0.0.1" }) => {
    const url = new URL(request.url);
    try {
      for (const route of table) {
        // Most routes answer null at once: awaiting only real promises keeps turns off the hot path.
        let response = route(request, url, conn);
        if (response instanceof Promise) response = await response;
        if (response) return await compress(request, response);
      }
      return plainError(new ApiError("ENOROUTE", `Not found: ${url.pathname}`));
    } catch {
      return plainError(new ApiError("EFATAL", "An unexpected error happened."));
    }
  }) as Handler;
  handler.services = services;
  handler.close = () => services.close();
  return handler;
}
