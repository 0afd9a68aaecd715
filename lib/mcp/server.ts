/**
 * linkpeek's MCP server (the SDK's low-level Server): tools/list answers the tool table,
 * tools/call runs one tool through an ApiClient. Both transports build theirs here: /mcp one
 * per HTTP request (stateless, its client speaks for that request's caller), stdio one for the
 * process.
 */
import { Server } from "@modelcontextprotocol/sdk/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { type ApiClient, callTool, describeTool } from "./call.ts";
import { TOOLS, TOOLS_BY_NAME } from "./tools.ts";
import { VERSION } from "../config/mod.ts";

/** What tools/call carries (the SDK's types.js subpath has no type declarations for Deno). */
interface CallToolRequest {
  params: { name: string; arguments?: Record<string, unknown> };
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
  server.setRequestHandler(CallToolRequestSchema, (request: CallToolRequest) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    if (!tool) {
      // The name as sent, up to a point: an error never echoes a caller's megabytes.
      const name = request.params.name;
      const shown = name.length > 100 ? `${name.slice(0, 100)}...` : name;
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${shown}`);
    }
    return callTool(client, tool, request.params.arguments);
  });
  return server;
}
