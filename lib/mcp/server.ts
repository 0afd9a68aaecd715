/**
 * linkpeek's MCP server (the SDK's low-level Server): tools/list answers the tool table,
 * tools/call runs one tool through an ApiClient. Both transports build theirs here: /mcp one
 * per HTTP request (stateless, its client speaks for that request's caller), stdio one for the
 * process.
 */
import { Server } from "@modelcontextprotocol/sdk/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type ApiClient, callTool, describeTool } from "./call.ts";
import { TOOLS, TOOLS_BY_NAME } from "./tools.ts";
import { VERSION } from "../config/mod.ts";

/** What tools/call carries, once callParams has checked it. */
interface CallParams {
  name: string;
  arguments?: Record<string, unknown>;
}

const SERVER_INFO = { name: "linkpeek", title: "linkpeek", version: VERSION };

const INSTRUCTIONS = "linkpeek reads web pages: metadata, Markdown or text, HTML, screenshots, " +
  "PDFs, colours, technologies and Lighthouse, links, images, e-mails, oEmbed, or a function " +
  "run in the page. Every tool takes `url`; answers are cached, so asking again is cheap. " +
  "Errors carry linkpeek's API code (EINVALURL, EFORBIDDENURL, ETIMEOUT, ERATE...).";

// The same list for every request: built once.
const LISTED = { tools: TOOLS.map(describeTool) };

// One for the process: a Server left to itself builds its own Ajv with formats, about a
// millisecond and a heap of garbage for every /mcp request (it is used for elicitation only).
const VALIDATOR = new AjvJsonSchemaValidator();

export function createMcpServer(client: ApiClient): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: VALIDATOR,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => LISTED);
  // tools/call is read here, not through the SDK's request schema: a request that schema
  // refuses (`arguments` a string, a number, an array) was answered as an internal error
  // (-32603), as if the server had broken, where JSON-RPC says Invalid params (-32602).
  server.fallbackRequestHandler = async (request) => {
    if (request.method !== "tools/call") {
      throw new McpError(ErrorCode.MethodNotFound, "Method not found");
    }
    const params = callParams(request.params);
    const tool = TOOLS_BY_NAME.get(params.name);
    if (!tool) {
      // The name as sent, up to a point: an error never echoes a caller's megabytes.
      const name = params.name;
      const shown = name.length > 100 ? `${name.slice(0, 100)}...` : name;
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${shown}`);
    }
    return await callTool(client, tool, params.arguments);
  };
  return server;
}

/** tools/call's params as the protocol defines them, or Invalid params saying what is wrong. */
function callParams(params: unknown): CallParams {
  if (!isRecord(params)) {
    throw new McpError(ErrorCode.InvalidParams, "tools/call `params` must be an object.");
  }
  if (typeof params.name !== "string") {
    throw new McpError(ErrorCode.InvalidParams, "tools/call `name` must be a string.");
  }
  const args = params.arguments;
  if (args !== undefined && !isRecord(args)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `tools/call \`arguments\` must be an object of the tool's arguments, got ${kindOf(args)}.`,
    );
  }
  return { name: params.name, arguments: args };
}

/** A JSON object (not an array, not null). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a JSON value is, for a message. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}
