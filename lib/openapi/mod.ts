/**
 * GET /openapi.json: an OpenAPI 3.1 description generated from the definitions the service runs
 * on (PARAMS for the query, ERROR_STATUS for errors, lib/oembed_endpoint/ for /oembed), never a
 * second hand-kept copy.
 */
import { type Config, REPO_URL, VERSION } from "../config/mod.ts";
import {
  API_HEADERS,
  codesByStatus,
  RATE_LIMIT_HEADERS,
  SCHEMAS,
  SECURITY_SCHEMES,
} from "./components.ts";
import { type JsonObject, queryParameters } from "./query.ts";
import { OEMBED_SCHEMAS, oembedCodesByStatus, oembedOperation } from "./oembed.ts";

const json = (schema: JsonObject) => ({ "application/json": { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const RETRY_AFTER = { description: "Seconds to wait before retrying.", schema: { type: "string" } };

/** Free server, then the pro ones: PRO_PORT and PRO_HOSTS (or the `pro.` first-label rule). */
function servers(config: Config): JsonObject[] {
  const base = new URL(config.publicUrl);
  const list: JsonObject[] = [{ url: config.publicUrl, description: "free endpoint" }];
  if (config.proPort) {
    const pro = new URL(base);
    pro.port = String(config.proPort);
    list.push({ url: pro.origin, description: "pro endpoint (PRO_PORT): needs x-api-key" });
  }
  // The first-label rule cannot apply to an IP literal: no `pro.` server to show then.
  const literal = /^[\d.]+$|^\[/.test(base.hostname);
  const hosts = config.proHosts ?? (literal ? [] : [`pro.${base.hostname}`]);
  for (const host of hosts) {
    list.push({
      url: `${base.protocol}//${host}${base.port ? `:${base.port}` : ""}`,
      description: config.proHosts
        ? "pro endpoint (PRO_HOSTS): needs x-api-key"
        : "pro endpoint (any host whose first label is pro): needs x-api-key",
    });
  }
  return list;
}

function errorResponses(
  skip: number[] = [],
  byStatus = codesByStatus(),
  notes: Record<number, string> = {},
): JsonObject {
  const out: JsonObject = {};
  for (const [status, codes] of byStatus) {
    if (skip.includes(status)) continue;
    out[String(status)] = {
      description: [codes.join(", "), notes[status]].filter(Boolean).join(". "),
      headers: {
        ...API_HEADERS,
        ...(status === 429 || status === 503 ? { "retry-after": RETRY_AFTER } : {}),
      },
      content: json({ allOf: [ref("Error"), { properties: { code: { enum: codes } } }] }),
    };
  }
  return out;
}

const API_DESCRIPTION = [
  "Metadata, screenshots and PDFs of a web page. Parameters take camelCase or snake_case names",
  "(`screenshot.fullPage` = `screenshot.full_page`; `x-snake-case` gives the other spelling).",
  "Objects are dotted names (`screenshot.element=#id`), list items dotted by index",
  "(`waitUntil.1=load`). A bare name with an empty value is true. Unknown parameters are",
  "ignored; `path`, `screenshot.path` and `pdf.path` are refused. A browser asking for `/` with",
  "no query gets the playground page. Methods other than GET, HEAD and OPTIONS answer 405",
  "EMETHOD.",
].join(" ");

/** When EBUSY answers: the pool sizes this server runs with. */
function busyNote(config: Config): string {
  return `EBUSY when the browser is saturated: ${config.browserPages} pages at once ` +
    `(BROWSER_PAGES) and ${config.browserQueue} visits waiting (BROWSER_QUEUE) already; ` +
    "retry after `retry-after` seconds";
}

function apiOperation(config: Config): JsonObject {
  return {
    operationId: "getMetadata",
    tags: ["metadata"],
    summary: "Metadata of a URL (free and pro endpoints)",
    description: API_DESCRIPTION,
    parameters: queryParameters(),
    // Free needs nothing (a key sent there is EPRO); pro needs the key (EAUTH without it).
    security: [{}, { apiKey: [] }],
    responses: {
      "200": {
        description:
          "The page's metadata as the JSON envelope (schema Success). With `embed`, that field's content instead, in one of the other media types (a URL field streamed as the file); a client that never sends `embed` may ask for application/json only.",
        headers: { ...API_HEADERS, ...RATE_LIMIT_HEADERS },
        content: {
          ...json(ref("Success")),
          "text/plain": { schema: { type: "string" } },
          "text/markdown": { schema: { type: "string" } },
          "image/*": { schema: { type: "string", contentMediaType: "image/*" } },
          "audio/*": { schema: { type: "string", contentMediaType: "audio/*" } },
          "video/*": { schema: { type: "string", contentMediaType: "video/*" } },
          "application/pdf": { schema: { type: "string", contentMediaType: "application/pdf" } },
          "application/octet-stream": { schema: { type: "string" } },
        },
      },
      ...errorResponses([405], codesByStatus(), { 503: busyNote(config) }),
    },
  };
}

/** A GET route besides the API: open to anyone unless `security` says otherwise. */
function plain(operation: JsonObject & { responses: JsonObject }): JsonObject {
  return { get: { tags: ["service"], security: [], ...operation } };
}

const OBSERVE = {
  description: "Loopback only, unless METRICS_TOKEN is set and sent as a bearer token.",
  security: [{}, { metricsToken: [] }],
};

const TAGS = [
  { name: "assets", description: "Screenshots and PDFs hosted by linkpeek." },
  { name: "metadata", description: "The Microlink-compatible API at /." },
  { name: "oembed", description: "linkpeek as an oEmbed provider for any URL." },
  { name: "service", description: "Health, readiness, metrics and this document." },
];

/** The whole document; servers follow the running configuration. */
export function openApiDocument(config: Config): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "linkpeek",
      version: VERSION,
      description: "A self-hostable clone of the Microlink API.",
      license: { name: "See repository", url: REPO_URL },
      contact: { name: "linkpeek", url: REPO_URL },
    },
    servers: servers(config),
    tags: TAGS,
    paths: {
      "/": {
        get: apiOperation(config),
        options: {
          operationId: "preflight",
          tags: ["metadata"],
          summary: "CORS preflight",
          description: "Any origin may call the API; x-api-key is an allowed request header.",
          security: [],
          responses: { "204": { description: "Allowed methods and headers." } },
        },
      },
      "/oembed": {
        get: oembedOperation(errorResponses([], oembedCodesByStatus()), {
          ...API_HEADERS,
          ...RATE_LIMIT_HEADERS,
        }),
      },
      "/errors": plain({
        operationId: "getErrorCodes",
        summary: "Error codes",
        description: "Every error code with its HTTP status and meaning, an anchor each (the " +
          "code in lower case): where an error answer's `more` points.",
        responses: {
          "200": {
            description: "An HTML page.",
            content: { "text/html": { schema: { type: "string" } } },
          },
        },
      }),
      "/health": plain({
        operationId: "getHealth",
        summary: "Liveness",
        description: "Answers while the process serves requests; checks nothing else.",
        responses: {
          "200": {
            description: "The process answers.",
            content: json({
              type: "object",
              required: ["status"],
              properties: { status: { const: "ok" } },
            }),
          },
        },
      }),
      "/ready": plain({
        operationId: "getReadiness",
        summary: "Readiness: browser and shared state usable",
        ...OBSERVE,
        responses: {
          "200": { description: "Ready.", content: json(ref("Readiness")) },
          "503": { description: "Browser or store unusable.", content: json(ref("Readiness")) },
          "404": {
            description: "ENOROUTE: not loopback and no token.",
            content: json(ref("Error")),
          },
        },
      }),
      "/metrics": plain({
        operationId: "getMetrics",
        summary: "Prometheus metrics",
        ...OBSERVE,
        responses: {
          "200": {
            description: "Text exposition format 0.0.4.",
            content: { "text/plain": { schema: { type: "string" } } },
          },
          "404": {
            description: "ENOROUTE: not loopback and no token.",
            content: json(ref("Error")),
          },
        },
      }),
      "/openapi.json": plain({
        operationId: "getOpenApi",
        summary: "This document",
        description: "Generated from the parameter and error tables the service runs on.",
        responses: {
          "200": { description: "OpenAPI 3.1.", content: json({ type: "object" }) },
        },
      }),
      "/assets/{id}": plain({
        operationId: "getAsset",
        tags: ["assets"],
        summary: "A hosted screenshot or PDF",
        description: "The URL comes from data.screenshot.url or data.pdf.url.",
        responses: {
          "200": {
            description: "The file; private captures answer cache-control: private.",
            content: {
              "image/png": { schema: { type: "string", contentMediaType: "image/png" } },
              "image/jpeg": { schema: { type: "string", contentMediaType: "image/jpeg" } },
              "application/pdf": {
                schema: { type: "string", contentMediaType: "application/pdf" },
              },
            },
          },
          "404": { description: "ENOROUTE: unknown or expired.", content: json(ref("Error")) },
        },
        parameters: [{
          name: "id",
          in: "path",
          required: true,
          description: "Asset id and extension, as in data.screenshot.url.",
          schema: { type: "string", pattern: "^[A-Za-z0-9_-]{1,128}\\.(png|jpg|pdf)$" },
        }],
      }),
    },
    components: {
      schemas: {
        ...SCHEMAS,
        ...OEMBED_SCHEMAS,
        Readiness: {
          type: "object",
          required: ["status", "browser", "store"],
          properties: {
            status: { enum: ["ready", "unready"] },
            browser: { type: "boolean" },
            store: { type: "boolean" },
          },
        },
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
