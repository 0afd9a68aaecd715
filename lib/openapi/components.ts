/**
 * Response shapes, headers and security schemes of the OpenAPI document. Error codes and their
 * statuses come from ERROR_STATUS, media and text fields from TEXT_FIELDS and MEDIA_FIELDS.
 */
import { ERROR_STATUS, type ErrorCode } from "../util/errors.ts";
import { MEDIA_FIELDS, TEXT_FIELDS } from "../util/payload_types.ts";
import type { JsonObject } from "./query.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string, extra: JsonObject = {}) => ({ type: [type, "null"], ...extra });

const MEDIA_OBJECT: JsonObject = {
  type: "object",
  description: "A file linked from the page (or hosted by linkpeek for screenshot and pdf).",
  required: ["url", "type", "size", "size_pretty", "width", "height"],
  properties: {
    url: { type: "string", description: "Absolute URL." },
    type: nullable("string", { description: "Short lowercase name: png, jpg, mp3, mp4, pdf..." }),
    size: nullable("integer", { minimum: 0, description: "Bytes." }),
    size_pretty: nullable("string", { examples: ["48.2 kB"] }),
    width: nullable("integer", { minimum: 0 }),
    height: nullable("integer", { minimum: 0 }),
    duration: nullable("number", { minimum: 0, description: "Seconds (audio, video)." }),
    duration_pretty: nullable("string"),
    pages: nullable("integer", {
      minimum: 0,
      description: "Pages of a PDF target read as a document (null when it could not be read).",
    }),
    animated: {
      type: "object",
      description: "screenshot only, with screenshot.animated: the recording, a media object " +
        "whose duration is in milliseconds (as Microlink answers it).",
      properties: {
        codec: { type: "string", examples: ["avc1.42E01E", "vp9"] },
        fps: { type: "integer", minimum: 1 },
        backend: { type: "string", const: "screencast" },
      },
      additionalProperties: true,
    },
    palette: { type: "array", items: { type: "string" }, description: "With palette=true." },
    background_color: nullable("string"),
    color: nullable("string"),
    alternative_color: nullable("string"),
  },
};

const TEXT_DESCRIPTIONS: Record<string, string> = {
  date: "ISO 8601.",
  lang: "ISO 639-1.",
  url: "The final canonical absolute URL.",
};

const DATA: JsonObject = {
  type: "object",
  description:
    "Every default field is present (null when unknown). Optional fields appear with their parameter; custom rules (data.*) add their own names.",
  required: [...TEXT_FIELDS, ...MEDIA_FIELDS],
  properties: {
    ...Object.fromEntries(
      TEXT_FIELDS.map((f) => [f, nullable("string", { description: TEXT_DESCRIPTIONS[f] ?? "" })]),
    ),
    ...Object.fromEntries(
      MEDIA_FIELDS.map((f) => [f, { oneOf: [ref("Media"), { type: "null" }] }]),
    ),
    screenshot: { oneOf: [ref("Media"), { type: "null" }], description: "With screenshot." },
    pdf: { oneOf: [ref("Media"), { type: "null" }], description: "With pdf." },
    markdown: nullable("string", {
      description: "With markdown=true; opens with YAML front matter with frontmatter=true.",
    }),
    text: nullable("string", { description: "With text=true." }),
    iframe: {
      description: "With iframe: the oEmbed provider's answer.",
      oneOf: [{
        type: "object",
        required: ["html", "scripts"],
        properties: {
          html: { type: "string" },
          scripts: {
            type: "array",
            items: {
              type: "object",
              required: ["src"],
              properties: {
                src: { type: "string" },
                async: { type: "boolean" },
                defer: { type: "boolean" },
                charset: { type: "string" },
                type: { type: "string" },
              },
            },
            description: "The scripts split out of html, as Microlink answers them: " +
              "each script element's attributes, its src absolute.",
          },
        },
      }, { type: "null" }],
    },
    insights: {
      type: "object",
      description: "With insights: the parts asked for.",
      properties: {
        technologies: {
          type: "array",
          description: "With insights.technologies: detected from headers, cookies and HTML.",
          items: {
            type: "object",
            description: "Microlink's shape (name, confidence, logo, url, categories), plus " +
              "linkpeek's slug and version.",
            required: ["name", "confidence", "logo", "url", "categories", "slug", "version"],
            properties: {
              name: { type: "string", examples: ["WordPress"] },
              confidence: { type: "integer", minimum: 0, maximum: 100 },
              logo: {
                type: "string",
                format: "uri",
                examples: ["https://www.wappalyzer.com/images/icons/WordPress.svg"],
              },
              url: nullable("string", { description: "The technology's website." }),
              categories: {
                type: "array",
                items: { type: "string" },
                examples: [["CMS", "Blogs"]],
              },
              slug: { type: "string", examples: ["wordpress"] },
              version: nullable("string"),
            },
          },
        },
        lighthouse: {
          description:
            "With insights.lighthouse: Lighthouse's report (lhr) without i18n, timing and the " +
            "full-page screenshot; with output=html or csv, Lighthouse's report as that text.",
          oneOf: [{ type: "object", additionalProperties: true }, { type: "string" }],
        },
      },
    },
    function: {
      type: "object",
      description: "With function: how the function settled, and its JSON value or error.",
      required: ["isFulfilled", "isRejected", "value"],
      properties: {
        isFulfilled: { type: "boolean" },
        isRejected: { type: "boolean" },
        value: { description: "The returned JSON value, or { name, message } when rejected." },
        profiling: {
          type: "object",
          description: "Microlink's profiling: phases in milliseconds (install is always 0: " +
            "nothing is installed), the sandbox's CPU milliseconds and memory bytes since the " +
            "job (null when it was killed before reporting), the source's bytes.",
          properties: {
            phases: {
              type: "object",
              properties: {
                install: { type: "integer" },
                build: { type: "integer" },
                spawn: { type: "integer" },
                run: { type: "integer" },
                total: { type: "integer" },
              },
            },
            cpu: nullable("integer"),
            memory: nullable("object", {
              properties: {
                total: { type: "integer" },
                used: { type: "integer" },
                heap: { type: "integer" },
                external: { type: "integer" },
              },
            }),
            size: { type: "integer" },
          },
        },
        logging: {
          type: "object",
          description: "The function's console output by level (log, info, warn, error, debug).",
          additionalProperties: { type: "array", items: { type: "string" } },
        },
      },
    },
  },
  additionalProperties: true,
};

const SUCCESS: JsonObject = {
  type: "object",
  required: ["status", "data", "statusCode", "redirects", "headers"],
  properties: {
    status: { const: "success" },
    data: ref("Data"),
    statusCode: nullable("integer", {
      description: "The target's HTTP status (404 and 500 included: they are successes).",
    }),
    redirects: {
      type: "array",
      items: {
        type: "object",
        required: ["statusCode", "url"],
        properties: { statusCode: { type: "integer" }, url: { type: "string" } },
      },
    },
    headers: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "The target's response headers, never set-cookie.",
    },
  },
};

const ERROR: JsonObject = {
  type: "object",
  required: ["status", "code", "message", "data"],
  properties: {
    status: { enum: ["fail", "error"], description: "fail for 4xx, error for 5xx." },
    code: ref("ErrorCode"),
    message: { type: "string" },
    id: { type: "string", description: "The request id (x-request-id, the log line)." },
    more: {
      type: "string",
      format: "uri",
      description: "This code's documentation: its anchor on the service's /errors page.",
    },
    url: { type: "string", description: "The url parameter as given." },
    data: {
      type: "object",
      required: ["url"],
      properties: { url: { type: "string", description: "The message again." } },
    },
  },
};

const HEADER_DESCRIPTIONS: Record<string, [string, JsonObject]> = {
  "x-response-time": ["Time spent answering, e.g. 120ms.", { type: "string" }],
  "x-timestamp": ["Epoch ms when the payload was made (kept on cache hits).", { type: "string" }],
  "x-pricing-plan": ["free or pro.", { enum: ["free", "pro"] }],
  "x-request-id": ["Id of this request, also in the log line.", { type: "string" }],
  "x-cache-status": ["Response cache result.", { enum: ["MISS", "HIT", "BYPASS", "STALE"] }],
  "x-cache-ttl": ["Milliseconds the answer stays cached.", { type: "string" }],
  "x-fetch-mode": ["How the target was read.", { enum: ["fetch", "prerender", "skipped"] }],
  "x-fetch-time": ["Time spent reading the target.", { type: "string" }],
  "server-timing": [
    "Milliseconds per phase, every one named (fetch, admit, cache, decode, extract, probe, " +
    "browser, store, respond; 0 when it did not run), then total.",
    { type: "string" },
  ],
  "cache-control": ["private, no-store for credentialed requests.", { type: "string" }],
  "access-control-allow-origin": ["Always *.", { const: "*" }],
  "x-content-type-options": ["Always nosniff.", { const: "nosniff" }],
};

const RATE_HEADERS: Record<string, [string, JsonObject]> = {
  "x-rate-limit-limit": ["Free requests per day.", { type: "string" }],
  "x-rate-limit-remaining": ["Free requests left today.", { type: "string" }],
  "x-rate-limit-reset": ["UTC epoch seconds of the next reset.", { type: "string" }],
  "ratelimit-policy": ['"daily";q=<limit>;w=86400', { type: "string" }],
  ratelimit: ['"daily";r=<left>;t=<seconds to reset>', { type: "string" }],
};

function headerObjects(table: Record<string, [string, JsonObject]>, note = ""): JsonObject {
  return Object.fromEntries(
    Object.entries(table).map(([name, [description, schema]]) => [
      name,
      { description: description + note, schema },
    ]),
  );
}

export const API_HEADERS = headerObjects(HEADER_DESCRIPTIONS);
export const RATE_LIMIT_HEADERS = headerObjects(RATE_HEADERS, " (free endpoint only)");

/** Codes grouped by HTTP status, from the one table the service uses. */
export function codesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

export const SCHEMAS: JsonObject = {
  Media: MEDIA_OBJECT,
  Data: DATA,
  Success: SUCCESS,
  Error: ERROR,
  ErrorCode: {
    type: "string",
    enum: Object.keys(ERROR_STATUS),
    "x-status": { ...ERROR_STATUS },
  },
};

export const SECURITY_SCHEMES: JsonObject = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description:
      "Pro endpoint only (EAUTH without a valid key; EPRO when sent to the free endpoint). Also accepted as the query parameter headers.apiKey (never forwarded).",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "METRICS_TOKEN: opens /ready and /metrics beyond loopback.",
  },
};
