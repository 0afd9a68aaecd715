/**
 * The one error boundary (as hono's errorHandler): every route may throw, and `errorAnswer`
 * turns what it threw into the contract's answer. An ApiError becomes the envelope with its
 * status and headers; anything else is logged once, with the request id and its cause chain
 * (no secrets, no stack), and becomes EFATAL.
 */
import { ApiError, causeChain, isApiError } from "../util/errors.ts";
import { CLIENT_GONE_STATUS, ClientGone } from "../util/client_gone.ts";
import { log } from "../util/log.ts";
import { API_HEADER_PREFIX } from "../api/api_headers.ts";
import { errorResponse, plainError } from "../api/respond.ts";
import type { Exchange } from "../api/exchange.ts";

export type { Exchange, RouteTag } from "../api/exchange.ts";

/** Request headers whose values are credentials. */
const SECRET_HEADERS = ["x-api-key", "authorization", "cookie", "proxy-authorization"];

/**
 * Everything in the request that may be a secret: `headers.*` values (all of them: a name
 * does not tell), the signature, the target's userinfo, credential and `x-api-header-*` headers.
 */
function secretsOf(exchange: Exchange): string[] {
  const secrets: string[] = [];
  for (const [name, value] of exchange.url.searchParams) {
    if (/^headers[._]/i.test(name) || name === "signature") secrets.push(value);
  }
  const target = URL.parse(exchange.url.searchParams.get("url") ?? "");
  for (const part of [target?.username, target?.password]) {
    if (part) secrets.push(part, safeDecode(part));
  }
  for (const [name, value] of exchange.request.headers) {
    if (!SECRET_HEADERS.includes(name) && !name.startsWith(API_HEADER_PREFIX)) continue;
    if (value) secrets.push(value, ...value.split(/[\s;=,]+/));
  }
  return secrets;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The contract's answer for whatever a route threw; `more` links into `publicUrl`'s /errors. */
export function errorAnswer(error: unknown, exchange: Exchange, publicUrl: string): Response {
  // Nobody reads it: its status tells the log line and the metrics why there was no answer.
  if (error instanceof ClientGone) return new Response(null, { status: CLIENT_GONE_STATUS });
  let apiError: ApiError;
  if (isApiError(error)) {
    apiError = error;
  } else {
    log.error("unexpected error", { error: causeChain(error, secretsOf(exchange)) });
    apiError = new ApiError("EFATAL", "An unexpected error happened; it has been logged.", {
      cause: error,
    });
  }
  exchange.code = apiError.code;
  if (!exchange.api) return plainError(apiError, { id: exchange.requestId, publicUrl });
  return errorResponse(apiError, exchange.api, {
    url: exchange.url.searchParams.get("url") ?? undefined,
    publicUrl,
  });
}
