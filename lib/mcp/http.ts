/**
 * POST /mcp: MCP's Streamable HTTP transport (protocol 2025-11-25), stateless. Each POST gets
 * its own SDK transport and Server, answered as one JSON body (no stream, no session: nothing
 * is kept between requests, so there is nothing to bound but the body: its size and the time it
 * takes to arrive). GET (the server's own
 * event stream) and DELETE (ending a session) answer 405, as the specification has a
 * sessionless server do.
 *
 * A tool call is a GET of the API through the service's own handler (`ApiHandler`), as the
 * caller: same address and forwarded-for, same plan, its key. A key (x-api-key, or the
 * `Authorization: Bearer` MCP clients send) selects pro with that key's limits; without one the
 * plan is the endpoint's, and on free each tool call counts as one request of the address.
 *
 * DNS rebinding: a browser always sends Origin with a POST; one that is present must be in
 * config.mcpOrigins (PUBLIC_URL's, MCP_ALLOWED_ORIGINS) or the answer is 403. CORS headers name
 * that origin only, never `*`: a page elsewhere cannot read answers made with its visitor's
 * address or key.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Config } from "../config/mod.ts";
import type { ApiClient } from "./call.ts";
import { createMcpServer } from "./server.ts";

export const MCP_PATH = "/mcp";

/** Tool calls carry at most a function's source and rules: a request body stays small. */
export const MAX_MCP_BODY_BYTES = 256 * 1024;

/** The service's handler, as createHandler makes it (a request and who sent it). */
export type ApiHandler = (
  request: Request,
  conn: { remoteAddr: string; pro?: boolean },
) => Promise<Response>;

export interface McpRequest {
  request: Request;
  remoteAddr: string;
  arrivedOnProPort: boolean;
  config: Pick<Config, "mcpOrigins" | "requestTimeoutMs">;
  api: ApiHandler;
}

const ALLOWED_METHODS = "POST, OPTIONS";

const ALLOWED_HEADERS = [
  "content-type",
  "accept",
  "authorization",
  "x-api-key",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
].join(", ");

/** A JSON-RPC error body without an id, as the transport answers what it refuses. */
function refusal(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}

function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "mcp-session-id, mcp-protocol-version",
    "vary": "Origin",
  };
}

/**
 * The POST's body, read within the request's deadline and past MAX_MCP_BODY_BYTES by at most a
 * chunk (the transport answers 413 for it); null when it stopped arriving. A body that never
 * ends would hold its request, and the graceful shutdown that waits for every request, forever.
 */
async function bodyWithin(
  request: Request,
  ms: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    reader.cancel().catch(() => {});
  }, ms);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= MAX_MCP_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    clearTimeout(timer);
  }
  if (late) return null;
  if (size > MAX_MCP_BODY_BYTES) await reader.cancel().catch(() => {});
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The caller's API key: x-api-key, else an `Authorization: Bearer` token. */
export function mcpApiKey(headers: Headers): string | null {
  const key = headers.get("x-api-key")?.trim();
  if (key) return key;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return bearer ? bearer[1]! : null;
}

/** Tool calls as the caller of this /mcp request: the API asked through the same handler. */
function clientFor(mcp: McpRequest): ApiClient {
  const { request } = mcp;
  const origin = new URL(request.url).origin;
  const key = mcpApiKey(request.headers);
  const headers: Record<string, string> = { accept: "application/json" };
  // The plan is chosen by Host, as for the API; the client's address by the same rule.
  for (const name of ["host", "x-forwarded-for"]) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  if (key !== null) headers["x-api-key"] = key;
  const conn = { remoteAddr: mcp.remoteAddr, pro: mcp.arrivedOnProPort || key !== null };
  return (pathAndQuery) => mcp.api(new Request(`${origin}${pathAndQuery}`, { headers }), conn);
}

export async function handleMcp(mcp: McpRequest): Promise<Response> {
  const { request } = mcp;
  const origin = request.headers.get("origin");
  if (origin !== null && !mcp.config.mcpOrigins.includes(origin)) {
    return refusal(403, `Forbidden: the Origin ${origin.slice(0, 200)} may not call /mcp.`);
  }
  const cors = corsHeaders(origin);
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        "access-control-allow-methods": ALLOWED_METHODS,
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": "86400",
      },
    });
  }
  if (request.method !== "POST") {
    return refusal(405, "Method not allowed: this server is stateless; POST JSON-RPC messages.", {
      ...cors,
      allow: ALLOWED_METHODS,
    });
  }
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
  });
  // Not closed after: with JSON answers every response is complete once handleRequest returns,
  // and nothing holds the pair but each other (close() would abort handlers that have finished,
  // a DOMException each, on every request).
  const body = await bodyWithin(request, mcp.config.requestTimeoutMs);
  if (body === null) {
    const seconds = mcp.config.requestTimeoutMs / 1000;
    return refusal(408, `Request Timeout: the body did not arrive within ${seconds} s.`, cors);
  }
  const server = createMcpServer(clientFor(mcp));
  // A cancellation can only name a request of this same POST, whose answer its client awaits in
  // this response: honoured, the SDK sends that request no answer, and the POST was never
  // answered (a batch of tools/list and its cancellation held its connection until the client
  // gave up). Not honoured here, it is a notification like any other: the POST is answered.
  server.removeNotificationHandler("notifications/cancelled");
  await server.connect(transport);
  const response = await transport.handleRequest(
    new Request(request.url, { method: "POST", headers: request.headers, body }),
  );
  if (origin === null) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(cors)) headers.set(name, value);
  return new Response(response.body, { status: response.status, headers });
}
