/**
 * Cached answers cloned from templates. Deno checks every header of a new Response twice, in
 * JS and then natively (about 1 µs apiece), and an API answer carries ~24: a cache hit spent
 * more on building its headers than on everything else it does. Answers that differ only in
 * the per-request headers are cloned from a template built once (a clone copies the checked
 * header list), and only those few are set on the copy. compression is done once per template too.
 */
import type { Encoding } from "../util/compress.ts";
import { BoundedMap } from "../util/bounded_map.ts";
import { type HeaderMap, jsonTextResponse } from "./respond.ts";

/** Headers whose values change from one request to the next; the rest make the template. */
const PER_REQUEST = new Set([
  "x-response-time",
  "x-request-id",
  "server-timing",
  "x-cache-ttl",
  "cache-control",
  "x-rate-limit-remaining",
  "ratelimit",
]);

/**
 * Cache statuses whose answer repeats. A MISS or BYPASS is the only one of its kind (the next
 * answer with its body is a HIT, another header set): its template would cost a clone and push
 * a reusable one out of the table.
 */
const REPEATS = new Set(["HIT", "STALE"]);

/** Larger bodies cost more to send than their headers do to build: no template for them. */
const MAX_BODY_CHARS = 64 * 1024;
const MAX_BODIES = 256;
/** Distinct header sets per body (plan, cache status, limit, encoding). */
const MAX_VARIANTS = 8;

interface Template {
  response: Response;
  /** Its per-request header values: a copy sets only those that differ. */
  values: HeaderMap;
}

/** body -> header signature -> template; bodies least recently used first (services.memo). */
export class Templates {
  readonly #bodies = new BoundedMap<string, BoundedMap<string, Template>>(MAX_BODIES);

  /** Bodies with templates. */
  get size(): number {
    return this.#bodies.size;
  }

  variantsOf(json: string): BoundedMap<string, Template> {
    let variants = this.#bodies.get(json);
    if (!variants) this.#bodies.set(json, variants = new BoundedMap(MAX_VARIANTS));
    return variants;
  }
}

/**
 * A JSON answer with these headers, compressed as the client prefers. The same as building it
 * afresh, byte for byte; only cheaper when the body and the fixed headers repeat.
 */
export function templatedJsonResponse(
  json: string,
  status: number,
  headers: HeaderMap,
  options: { encoding: Encoding | null; templates: Templates },
): Response {
  if (json.length > MAX_BODY_CHARS || !REPEATS.has(headers["x-cache-status"] ?? "HIT")) {
    return jsonTextResponse(json, status, headers, options);
  }
  let signature = `${status} ${options.encoding ?? ""}\n`;
  for (const name in headers) {
    signature += PER_REQUEST.has(name) ? `${name}\n` : `${name}:${headers[name]}\n`;
  }
  const variants = options.templates.variantsOf(json);
  let template = variants.get(signature);
  if (!template) {
    template = {
      response: jsonTextResponse(json, status, headers, options),
      values: { ...headers },
    };
    variants.set(signature, template);
  }
  const response = template.response.clone();
  const copy = response.headers;
  for (const name of PER_REQUEST) {
    const value = headers[name];
    if (value !== undefined && value !== template.values[name]) copy.set(name, value);
  }
  return response;
}
