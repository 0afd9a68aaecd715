/**
 * `deno task mcp` (and `linkpeek mcp` in the compiled binary): linkpeek's MCP tools over stdio,
 * for desktop clients that start their servers as processes. It forwards every tool call to a
 * running linkpeek at LINKPEEK_URL (default http://localhost:3000) as an API client, with
 * LINKPEEK_API_KEY as its x-api-key: the service's guard, cache, plans and limits apply as to
 * any client, and the process itself holds no browser, cache or store.
 *
 * Stdout carries protocol messages only: this process writes nothing else, and a message about
 * itself (a bad setting, the server it talks to) goes to stderr.
 */
import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { ApiClient } from "../mcp/call.ts";
import { createMcpServer } from "../mcp/server.ts";

export const DEFAULT_LINKPEEK_URL = "http://localhost:3000";

type Env = Record<string, string | undefined>;

/** The base URL and key from the environment; a readable Error for a bad URL. */
export function stdioSettings(env: Env): { base: URL; apiKey: string | null } {
  const raw = env.LINKPEEK_URL?.trim() || DEFAULT_LINKPEEK_URL;
  const base = URL.parse(raw);
  if (!base || (base.protocol !== "http:" && base.protocol !== "https:")) {
    throw new Error(
      `LINKPEEK_URL must be an http(s) URL like ${DEFAULT_LINKPEEK_URL}, got "${raw}"`,
    );
  }
  // A service under a path prefix (https://host/linkpeek) keeps it.
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return { base, apiKey: env.LINKPEEK_API_KEY?.trim() || null };
}

/** API requests to the linkpeek at `base`, as one client with `apiKey`. */
export function forwardingClient(base: URL, apiKey: string | null): ApiClient {
  const headers: Record<string, string> = { accept: "application/json" };
  if (apiKey) headers["x-api-key"] = apiKey;
  return async (pathAndQuery) => {
    const url = new URL(pathAndQuery.slice(1), base);
    try {
      return await fetch(url, { headers });
    } catch (error) {
      // Not reachable: a tool result saying so, as the API says what it cannot reach.
      const message = `linkpeek at ${base.origin} is not reachable (${
        error instanceof Error ? error.message : String(error)
      }): start it, or set LINKPEEK_URL.`;
      return Response.json({ status: "error", code: "EUNAVAILABLE", message }, { status: 503 });
    }
  };
}

/** A message line longer than this is refused (a tool call's arguments are small). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Serves until the client closes stdin (then the process ends: nothing else keeps it). */
export async function runStdio(env: Env = Deno.env.toObject()): Promise<void> {
  const { base, apiKey } = stdioSettings(env);
  const server = createMcpServer(forwardingClient(base, apiKey));
  const transport = new StdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: MAX_MESSAGE_BYTES,
  });
  process.stdin.once("end", () => server.close());
  await server.connect(transport);
}

if (import.meta.main) {
  try {
    await runStdio();
  } catch (error) {
    // deno-lint-ignore no-console
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
