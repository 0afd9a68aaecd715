/**
 * The HTTP surface, first in every request's path: main.ts's Deno.serve hands each request to
 * the handler made here, which gives it an id (for its log lines), walks the route table
 * (ROUTES), compresses the answer, turns any throw into the contract's error answer
 * (errorAnswer) and writes the request's one log line.
 */
import type { Config } from "../config/mod.ts";
import { ApiError } from "../util/errors.ts";
import { errorAnswer, type Exchange } from "./boundary.ts";
import { compress } from "../util/compress.ts";
import { CLIENT_GONE_STATUS } from "../util/client_gone.ts";
import { inRequest, levelOfStatus, log } from "../util/log.ts";
import { createServices, type ServiceHooks } from "../services/mod.ts";
import { type ApiServices, createMemo } from "../api/memo.ts";
import {
  ALLOWED_METHODS,
  type ConnInfo,
  methodAllowed,
  NO_ROUTE,
  notFound,
  routeMatches,
  ROUTES,
} from "./routes.ts";

export type { ConnInfo } from "./routes.ts";

export interface Handler {
  (request: Request, conn?: ConnInfo): Promise<Response>;
  services: ApiServices;
  close(): Promise<void>;
}

/** Only the methods some route takes; anything else is EMETHOD. */
function checkMethod(request: Request, path: string): void {
  if (methodAllowed(request.method, path)) return;
  throw new ApiError("EMETHOD", `The method ${request.method} is not allowed: use GET.`, {
    headers: { allow: ALLOWED_METHODS },
  });
}

/** The answer's one log line, at the level of its outcome. */
function logAnswer(exchange: Exchange, response: Response): void {
  const { api, route } = exchange;
  const { status } = response;
  const probe = route?.probe === true && status < 400;
  // A client that went away is no fault of the service's.
  const level = probe ? "debug" : status === CLIENT_GONE_STATUS ? "info" : levelOfStatus(status);
  log.answer(level, {
    route: route?.name ?? NO_ROUTE,
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

/** The whole HTTP surface: the route table (ROUTES), first match wins, default 404. */
export async function createHandler(config: Config, hooks: ServiceHooks = {}): Promise<Handler> {
  const services: ApiServices = { ...await createServices(config, hooks), memo: createMemo() };
  const answer = async (exchange: Exchange, conn: ConnInfo): Promise<Response> => {
    const { request, url } = exchange;
    try {
      checkMethod(request, url.pathname);
      for (const route of ROUTES) {
        if (!routeMatches(route, request.method, url.pathname)) continue;
        exchange.route = route;
        // Most routes answer at once: awaiting only real promises keeps turns off the hot path.
        let response = route.handle({ services, request, url, conn, exchange, self: handler });
        if (response instanceof Promise) response = await response;
        if (response) return await compress(request, response);
      }
      exchange.route = undefined;
      throw notFound(url);
    } catch (error) {
      return await compress(request, errorAnswer(error, exchange, config.publicUrl));
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
      const { api, route } = exchange;
      if (api && route?.metered) {
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
