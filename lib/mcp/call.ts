/**
 * One tool call: the tool's query sent to the API through an `ApiClient` (the service's own
 * handler for /mcp, HTTP to a linkpeek for stdio), and its answer as an MCP tool result:
 * `structuredContent` (the API's `data`, the target's status code, the final URL, the cache
 * status), a text content for the model, the hosted capture as a link (and as an image when
 * small). An API error is a result with `isError: true` and the API's code and message.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { ASSET_PREFIX } from "../api/assets.ts";
import { isApiError } from "../util/errors.ts";
import type { JsonObject } from "./args.ts";
import { type Tool, TOOLS } from "./tools.ts";

/** GETs a path and query (`/?url=...`, `/assets/...`) of linkpeek, as one client. */
export type ApiClient = (pathAndQuery: string) => Promise<Response>;

/** A screenshot up to this size is sent as image content too (base64 grows it by a third). */
export const MAX_IMAGE_BYTES = 1024 * 1024;

/** MCP content items, as the protocol's CallToolResult has them. */
type Content =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; size?: number };

export interface ToolResult {
  [key: string]: unknown;
  content: Content[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

/** What every tool's structuredContent holds: its outputSchema. */
export const OUTPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    data: {
      type: "object",
      description: "The API's `data` (for linkpeek_oembed, the oEmbed answer).",
    },
    statusCode: {
      // anyOf, not a type array: clients that map schemas to one-type dialects take it.
      anyOf: [{ type: "integer" }, { type: "null" }],
      description: "The HTTP status the target answered (null when not fetched).",
    },
    url: { type: "string", description: "The final URL, after redirects." },
    cache: {
      type: "string",
      enum: ["MISS", "HIT", "BYPASS", "STALE"],
      description: "Whether linkpeek's cache answered (x-cache-status).",
    },
  },
  required: ["data", "statusCode", "url", "cache"],
};

/** A tool as tools/list shows it. */
export function describeTool(tool: Tool): JsonObject {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema(tool),
    outputSchema: OUTPUT_SCHEMA,
    annotations: {
      title: tool.title,
      // Reads the web; the service keeps only its cache and hosted captures.
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
  };
}

function inputSchema(tool: Tool): JsonObject {
  return {
    type: "object",
    properties: {
      url: {
        type: "string",
        maxLength: 8192,
        description: "The page's URL (http or https).",
      },
      ...tool.args,
    },
    required: ["url", ...(tool.required ?? [])],
    additionalProperties: false,
  };
}

// Compiled once: a tool call checks its arguments in microseconds.
const ajv = new Ajv({ allErrors: false, strict: false });
const validators: ReadonlyMap<string, ValidateFunction> = new Map(
  TOOLS.map((tool) => [tool.name, ajv.compile(inputSchema(tool))]),
);

/** A bad argument: the API's EINVALQUERY, said before the API is asked (and counted). */
function argumentError(tool: Tool, validate: ValidateFunction): ToolResult {
  const error = validate.errors?.[0];
  const path = (error?.instancePath ?? "").slice(1).replaceAll("/", ".");
  const within = (name: string) => (path ? `${path}.${name}` : name);
  const what = error?.keyword === "required"
    ? `the argument \`${within(String(error.params.missingProperty))}\` is required`
    : error?.keyword === "additionalProperties"
    ? `unknown argument \`${within(String(error.params.additionalProperty))}\``
    : `\`${path || "arguments"}\` ${error?.message ?? "is invalid"}`;
  return errorResult("EINVALQUERY", `Invalid arguments for ${tool.name}: ${what}.`, 400);
}

function errorResult(code: string, message: string, status: number): ToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${message}` }],
    _meta: { code, message, status },
  };
}

/** Runs `tool` with `args` through `client`; every failure is a result, never a throw. */
export async function callTool(
  client: ApiClient,
  tool: Tool,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  const validate = validators.get(tool.name)!;
  if (!validate(args)) return argumentError(tool, validate);
  let query: URLSearchParams;
  try {
    query = tool.query(args);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return errorResult(error.code, error.message, error.status);
  }
  query.set("url", String(args.url));
  const response = await client(`${tool.path ?? "/"}?${query}`);
  const body = await response.json().catch(() => null) as JsonObject | null;
  if (!response.ok || body === null || (tool.path !== "/oembed" && body.status !== "success")) {
    const code = typeof body?.code === "string" ? body.code : "EFATAL";
    const message = typeof body?.message === "string"
      ? body.message
      : `linkpeek answered ${response.status}.`;
    return errorResult(code, message, response.status);
  }
  const data = (tool.path === "/oembed" ? body : body.data) as JsonObject;
  const structured = {
    data,
    statusCode: typeof body.statusCode === "number" ? body.statusCode : null,
    url: typeof data.url === "string" ? data.url : String(args.url),
    cache: response.headers.get("x-cache-status") ?? "BYPASS",
  };
  const shown = tool.shows ? data[tool.shows] : data;
  const content: Content[] = [{
    type: "text",
    text: typeof shown === "string"
      ? shown
      : shown === null || shown === undefined
      ? `No ${tool.shows} found at ${structured.url}.`
      : JSON.stringify(shown),
  }];
  if (tool.media) content.push(...await mediaContent(client, data[tool.media]));
  return { content, structuredContent: structured };
}

/** A hosted capture: its link, and the image itself when it is a small enough screenshot. */
async function mediaContent(client: ApiClient, media: unknown): Promise<Content[]> {
  if (media === null || typeof media !== "object") return [];
  const { url, type, size } = media as { url?: unknown; type?: unknown; size?: unknown };
  const path = typeof url === "string" ? URL.parse(url)?.pathname : undefined;
  if (typeof url !== "string" || !path) return [];
  const mimeType = MIME_TYPES[String(type)];
  const link: Content = {
    type: "resource_link",
    uri: url,
    name: path.split("/").pop()!,
    ...(mimeType ? { mimeType } : {}),
    ...(typeof size === "number" ? { size } : {}),
  };
  const small = typeof size === "number" && size <= MAX_IMAGE_BYTES;
  if (!mimeType?.startsWith("image/") || !small || !path.startsWith(ASSET_PREFIX)) return [link];
  // Asked of linkpeek itself, by path: the hosted URL names the service's public address,
  // which this process may not reach under that name.
  const response = await client(path);
  if (!response.ok) {
    await response.body?.cancel();
    return [link];
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return [{ type: "image", data: bytes.toBase64(), mimeType }, link];
}

/** The `type` of a hosted capture (hostAsset) as a media type. */
const MIME_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  pdf: "application/pdf",
};
