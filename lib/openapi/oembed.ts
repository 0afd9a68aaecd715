/**
 * GET /oembed in the OpenAPI document: its own parameters, the API parameters it passes on
 * (PASSED_PARAMS, described by PARAMS), the oEmbed 1.0 answer, and the API's error codes at the
 * statuses /oembed answers them with (OEMBED_STATUS, FORMAT_STATUS).
 */
import { ERROR_STATUS, type ErrorCode } from "../util/errors.ts";
import { FORMAT_STATUS, MAX_PIXELS, OEMBED_STATUS, PASSED_PARAMS } from "../oembed_endpoint/mod.ts";
import { type JsonObject, queryParameters } from "./query.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The API's codes by the status /oembed gives them; routes and methods are not its own. */
export function oembedCodesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  const add = (status: number, code: ErrorCode) =>
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
    if (code !== "ENOROUTE" && code !== "EMETHOD") add(OEMBED_STATUS[code] ?? status, code);
  }
  add(FORMAT_STATUS, "EINVALQUERY");
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

const size = (name: string, side: string): JsonObject => ({
  name,
  in: "query",
  required: false,
  description:
    `The most pixels of ${side} the consumer has room for: the card, a provider's frame, a photo and a thumbnail are all sized to fit.`,
  schema: { type: "integer", minimum: 1, maximum: MAX_PIXELS },
  example: 600,
});

function parameters(): JsonObject[] {
  const passed = queryParameters().filter((p) => {
    const name = p.name as string;
    return name !== "url" && PASSED_PARAMS.has(name.split(".")[0]!);
  });
  return [
    {
      name: "url",
      in: "query",
      required: true,
      description: "The page to embed (http or https).",
      schema: { type: "string", maxLength: 2048 },
      example: "https://example.com/article",
    },
    size("maxwidth", "width"),
    size("maxheight", "height"),
    {
      name: "format",
      in: "query",
      required: false,
      description: "json (default) or xml; any other format is 501 EINVALQUERY.",
      schema: { type: "string", enum: ["json", "xml"], default: "json" },
    },
    {
      name: "type",
      in: "query",
      required: false,
      description: "link: a link answer (title, author, provider, thumbnail) without an embed.",
      schema: { type: "string", enum: ["link"] },
    },
    ...passed.map((p) => ({ ...p, description: `${p.description} (as on /)` })),
  ];
}

const text = (description: string) => ({ type: "string", description });
const pixels = (description: string) => ({ type: "integer", minimum: 1, description });

/** oEmbed 1.0's fields; each type adds the ones it requires. */
const COMMON: JsonObject = {
  type: "object",
  required: ["version", "type"],
  properties: {
    version: { const: "1.0" },
    type: { enum: ["photo", "video", "rich", "link"] },
    title: text("The page's title (at most 300 characters)."),
    author_name: text("The page's author."),
    author_url: text("The author's page (from the target's own provider)."),
    provider_name: text("Who publishes the page, else its host."),
    provider_url: text("The page's origin."),
    cache_age: {
      type: "integer",
      minimum: 0,
      description: "Seconds the answer stays in linkpeek's cache; absent on private answers.",
    },
    thumbnail_url: text("The page's image, verified; with its size fitted to the limits."),
    thumbnail_width: pixels("With thumbnail_url."),
    thumbnail_height: pixels("With thumbnail_url."),
    url: text("photo: the image."),
    html: text(
      "video and rich: an <iframe> rebuilt from the provider's, a sandboxed srcdoc frame holding the provider's markup, or linkpeek's card (inline styles, no script).",
    ),
    width: pixels("photo, video, rich: the width the answer takes."),
    height: pixels("photo, video, rich: the height it takes (the card's, at most)."),
  },
};

const variant = (type: string, required: string[]): JsonObject => ({
  allOf: [ref("Oembed"), { required, properties: { type: { const: type } } }],
});

export const OEMBED_SCHEMAS: JsonObject = {
  Oembed: COMMON,
  OembedAnswer: {
    description: "An oEmbed 1.0 answer: the fields each type requires.",
    oneOf: [
      variant("photo", ["url", "width", "height"]),
      variant("video", ["html", "width", "height"]),
      variant("rich", ["html", "width", "height"]),
      variant("link", []),
    ],
  },
};

const DESCRIPTION = [
  "linkpeek as an oEmbed 1.0 provider (https://oembed.com) for any URL, on the same plans,",
  "limits, cache and guard as `/`. `video` or `rich` when the page names its own oEmbed",
  "provider (its embed rebuilt safely, sized), `photo` when the target is an image, otherwise",
  "`rich` with a link-preview card; `link` when asked. Errors use the API's codes and JSON",
  "envelope (JSON also for format=xml) at oEmbed's statuses: 404 ENOTFOUND when there is",
  "nothing to embed, 501 for an unknown format, 401 EAUTH, 403 EPRO.",
].join(" ");

/** The operation; `errors` are the error responses built from oembedCodesByStatus(). */
export function oembedOperation(errors: JsonObject, headers: JsonObject): JsonObject {
  return {
    operationId: "getOembed",
    tags: ["oembed"],
    summary: "oEmbed answer for a URL (free and pro endpoints)",
    description: DESCRIPTION,
    parameters: parameters(),
    security: [{}, { apiKey: [] }],
    responses: {
      "200": {
        description: "The oEmbed answer, as JSON or, with format=xml, the spec's XML.",
        headers,
        content: {
          "application/json": { schema: ref("OembedAnswer") },
          "text/xml": { schema: { type: "string" } },
        },
      },
      ...errors,
    },
  };
}
