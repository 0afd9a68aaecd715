/**
 * An /oembed query: the oEmbed parameters (url, maxwidth, maxheight, format, and linkpeek's
 * type=link), and the API query the pipeline runs for it.
 */
import { ApiError } from "../util/errors.ts";
import { toCamel } from "../params/tree.ts";
import { DISCOVERY_QUERY } from "./target_embed.ts";

export interface OembedRequest {
  maxWidth: number | null;
  maxHeight: number | null;
  format: "json" | "xml";
  /** type=link: a link answer, whatever the target is. */
  link: boolean;
  /** What the API's pipeline reads: the target, the cache and fetch controls, discovery. */
  query: URL;
  /** The answer's cache entry depends on the size asked of the target's own provider. */
  cacheScope: string;
}

/**
 * API parameters an oEmbed consumer may send along: the target's headers (and the API key as
 * headers.apiKey), the cache and the fetch controls. Anything that changes the payload's shape
 * (embed, filter, meta, data, screenshot...) is left out, as unknown parameters are.
 */
export const PASSED_PARAMS: ReadonlySet<string> = new Set([
  "url",
  "headers",
  "ttl",
  "staleTtl",
  "force",
  "prerender",
  "timeout",
]);

/** oEmbed 1.0: a provider that cannot answer in the format asked says 501 Not Implemented. */
export const FORMAT_STATUS = 501;

export const MAX_PIXELS = 10_000;

function size(query: URLSearchParams, name: "maxwidth" | "maxheight"): number | null {
  const raw = query.get(name)?.trim();
  if (!raw) return null;
  const value = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= MAX_PIXELS)) {
    throw new ApiError(
      "EINVALQUERY",
      `The parameter \`${name}\` must be a whole number of pixels from 1 to ${MAX_PIXELS}, got "${
        raw.slice(0, 40)
      }".`,
    );
  }
  return value;
}

function format(query: URLSearchParams): "json" | "xml" {
  const raw = (query.get("format") ?? "").trim().toLowerCase();
  if (raw === "" || raw === "json") return "json";
  if (raw === "xml") return "xml";
  throw new ApiError(
    "EINVALQUERY",
    `The parameter \`format\` must be json or xml, got "${raw.slice(0, 40)}".`,
    { status: FORMAT_STATUS },
  );
}

function wantsLink(query: URLSearchParams): boolean {
  const raw = query.get("type");
  if (raw === null || raw.trim() === "") return false;
  if (raw.trim().toLowerCase() === "link") return true;
  throw new ApiError(
    "EINVALQUERY",
    `The parameter \`type\` can only be link (the other types follow the target), got "${
      raw.slice(0, 40)
    }".`,
  );
}

/** Reads an /oembed query; EINVALQUERY names a bad parameter (501 for an unknown format). */
export function readOembedRequest(url: URL): OembedRequest {
  const query = url.searchParams;
  const request = {
    maxWidth: size(query, "maxwidth"),
    maxHeight: size(query, "maxheight"),
    format: format(query),
    link: wantsLink(query),
  };
  const passed = new URLSearchParams();
  for (const [name, value] of query) {
    if (PASSED_PARAMS.has(toCamel(name.split(".")[0]!))) passed.append(name, value);
  }
  for (const [name, value] of DISCOVERY_QUERY) passed.set(name, value);
  return {
    ...request,
    query: new URL(`?${passed}`, url),
    cacheScope: `oembed;maxwidth=${request.maxWidth ?? ""};maxheight=${request.maxHeight ?? ""}`,
  };
}
