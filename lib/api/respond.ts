import { ApiError, errorBody } from "../errors.ts";

export type Plan = "free" | "pro";

/** Response headers the contract promises on every API answer, filled as the request goes. */
export interface ResponseMeta {
  requestId: string;
  startedAt: number;
  plan: Plan;
  cacheStatus: "MISS" | "HIT" | "BYPASS" | "STALE";
  cacheTtlMs: number;
  fetchMode: "fetch" | "prerender" | "skipped";
  fetchTimeMs: number;
  /** When the payload was made (epoch ms); a cache hit keeps the original time. */
  timestamp: number;
  /** Rate-limit headers from the plan step. */
  extra: Record<string, string>;
  /** Credentialed answers are never stored by shared caches. */
  private: boolean;
}

export function newMeta(requestId: string, plan: Plan): ResponseMeta {
  const now = Date.now();
  return {
    requestId,
    startedAt: performance.now(),
    plan,
    cacheStatus: "BYPASS",
    cacheTtlMs: 0,
    fetchMode: "skipped",
    fetchTimeMs: 0,
    timestamp: now,
    extra: {},
    private: false,
  };
}

export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "x-api-key",
  "access-control-expose-headers": [
    "x-response-time",
    "x-timestamp",
    "x-pricing-plan",
    "x-request-id",
    "x-cache-status",
    "x-cache-ttl",
    "x-fetch-mode",
    "x-fetch-time",
    "x-rate-limit-limit",
    "x-rate-limit-remaining",
    "x-rate-limit-reset",
    "ratelimit",
    "ratelimit-policy",
    "retry-after",
    "server-timing",
  ].join(", "),
  "x-content-type-options": "nosniff",
};

export function apiHeaders(meta: ResponseMeta, cacheControl?: string): Headers {
  const elapsed = performance.now() - meta.startedAt;
  const headers = new Headers(CORS_HEADERS);
  // Every API answer comes from `/`, which also serves the playground to browsers.
  headers.set("vary", "Accept, Accept-Encoding");
  headers.set("x-response-time", `${Math.round(elapsed)}ms`);
  headers.set("x-timestamp", String(meta.timestamp));
  headers.set("x-pricing-plan", meta.plan);
  headers.set("x-request-id", meta.requestId);
  headers.set("x-cache-status", meta.cacheStatus);
  headers.set("x-cache-ttl", String(Math.max(0, Math.round(meta.cacheTtlMs))));
  headers.set("x-fetch-mode", meta.fetchMode);
  headers.set("x-fetch-time", `${Math.round(meta.fetchTimeMs)}ms`);
  headers.set(
    "server-timing",
    `fetch;dur=${meta.fetchTimeMs.toFixed(1)}, total;dur=${elapsed.toFixed(1)}`,
  );
  headers.set(
    "cache-control",
    cacheControl ??
      (meta.private
        ? "private, no-store"
        : `public, max-age=${Math.floor(Math.max(0, meta.cacheTtlMs) / 1000)}`),
  );
  for (const [name, value] of Object.entries(meta.extra)) headers.set(name, value);
  return headers;
}

export function jsonResponse(body: unknown, status: number, headers: Headers): Response {
  return jsonTextResponse(JSON.stringify(body), status, headers);
}

/** JSON that is text already: a cached payload is sent as stored, not re-serialised. */
export function jsonTextResponse(json: string, status: number, headers: Headers): Response {
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(json, { status, headers });
}

export function errorResponse(error: ApiError, meta: ResponseMeta, url?: string): Response {
  const headers = apiHeaders(meta, "no-store");
  for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
  return jsonResponse(errorBody(error, url), error.status, headers);
}

/** Errors outside the API (405, unknown routes) still use the envelope. */
export function plainError(error: ApiError): Response {
  const headers = new Headers(CORS_HEADERS);
  headers.set("cache-control", "no-store");
  for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
  return jsonResponse(errorBody(error), error.status, headers);
}
