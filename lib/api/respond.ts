import { ApiError, errorBody } from "../util/errors.ts";
import { encode, type Encoding, worthCompressing } from "../util/compress.ts";
import { Timings } from "../util/server_timing.ts";
import type { FetchMode } from "../util/payload_types.ts";

export type Plan = "free" | "pro";

/** Response headers the contract promises on every API answer, filled as the request goes. */
export interface ResponseMeta {
  requestId: string;
  startedAt: number;
  plan: Plan;
  cacheStatus: "MISS" | "HIT" | "BYPASS" | "STALE";
  cacheTtlMs: number;
  fetchMode: FetchMode;
  fetchTimeMs: number;
  /** Where this request's time went, by phase (server-timing). */
  timings: Timings;
  /** When the answer began to be shaped (performance.now()), for the `respond` phase. */
  respondFrom?: number;
  /** When the payload was made (epoch ms); a cache hit keeps the original time. */
  timestamp: number;
  /** Rate-limit headers from the plan step. */
  extra: Record<string, string>;
  /** Credentialed answers are never stored by shared caches. */
  private: boolean;
  /** The target's host, for the log line (never its path, query or userinfo). */
  targetHost?: string;
}

/** `startedAt`: the request's arrival on performance.now()'s clock. */
export function newMeta(requestId: string, plan: Plan, startedAt: number): ResponseMeta {
  const now = Date.now();
  return {
    requestId,
    startedAt,
    plan,
    cacheStatus: "BYPASS",
    cacheTtlMs: 0,
    fetchMode: "skipped",
    fetchTimeMs: 0,
    timings: new Timings(),
    timestamp: now,
    extra: {},
    private: false,
  };
}

export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  // "*" lets browsers send x-api-header-<anything> (no credentialed CORS here, so it applies).
  "access-control-allow-headers": "*, x-api-key, authorization",
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

/**
 * Response headers as a plain record of lower-case names: Deno builds a Response from one
 * noticeably faster than from a Headers object filled by set(), and every answer has ~20.
 */
export type HeaderMap = Record<string, string>;

export function apiHeaders(meta: ResponseMeta, cacheControl?: string): HeaderMap {
  const now = performance.now();
  const elapsed = now - meta.startedAt;
  if (meta.respondFrom !== undefined) meta.timings.add("respond", now - meta.respondFrom);
  return {
    ...CORS_HEADERS,
    // Every API answer comes from `/`, which also serves the playground to browsers.
    "vary": "Accept, Accept-Encoding",
    "x-response-time": `${Math.round(elapsed)}ms`,
    "x-timestamp": String(meta.timestamp),
    "x-pricing-plan": meta.plan,
    "x-request-id": meta.requestId,
    "x-cache-status": meta.cacheStatus,
    "x-cache-ttl": String(Math.max(0, Math.round(meta.cacheTtlMs))),
    "x-fetch-mode": meta.fetchMode,
    "x-fetch-time": `${Math.round(meta.fetchTimeMs)}ms`,
    "server-timing": meta.timings.header(elapsed),
    "cache-control": cacheControl ??
      (meta.private
        ? "private, no-store"
        : `public, max-age=${Math.floor(Math.max(0, meta.cacheTtlMs) / 1000)}`),
    ...meta.extra,
  };
}

export function jsonResponse(body: unknown, status: number, headers: HeaderMap): Response {
  return jsonTextResponse(JSON.stringify(body), status, headers);
}

/**
 * JSON that is text already: a cached payload is sent as stored, not re-serialised. With an
 * `encoding` (the client's preferred one) an answer worth it (worthCompressing) is compressed.
 */
export function jsonTextResponse(
  json: string,
  status: number,
  headers: HeaderMap,
  options: { encoding: Encoding | null } = { encoding: null },
): Response {
  headers["content-type"] = "application/json; charset=utf-8";
  const bytes = encoder.encode(json);
  if (options.encoding && worthCompressing(bytes.length)) {
    const body = encode(bytes, options.encoding);
    headers["content-encoding"] = options.encoding;
    headers["content-length"] = String(body.length);
    return new Response(body, { status, headers });
  }
  // A known length lets compression skip small answers without reading them back. The body
  // stays a string: Deno sends string bodies on a faster path than byte arrays.
  headers["content-length"] = String(bytes.length);
  return new Response(json, { status, headers });
}

const encoder = new TextEncoder();

export function errorResponse(
  error: ApiError,
  meta: ResponseMeta,
  context: { url?: string; publicUrl: string },
): Response {
  const headers = { ...apiHeaders(meta, "no-store"), ...error.headers };
  const body = errorBody(error, { ...context, id: meta.requestId });
  return jsonResponse(body, error.status, headers);
}

/** Errors outside the API (405, unknown routes, assets) still use the envelope. */
export function plainError(
  error: ApiError,
  context: { id?: string; publicUrl?: string } = {},
): Response {
  const headers: HeaderMap = { ...CORS_HEADERS, "cache-control": "no-store", ...error.headers };
  // The id of the log line that tells more (an EFATAL's cause).
  if (context.id !== undefined) headers["x-request-id"] = context.id;
  return jsonResponse(errorBody(error, context), error.status, headers);
}
