import { cached, cacheKey, DEFAULT_TTL_MS } from "../cache/mod.ts";
import type { Params } from "../params/mod.ts";
import type { Services } from "../services.ts";
import type { Payload } from "./payload.ts";
import type { ResponseMeta } from "./respond.ts";

/**
 * The response cache around buildPayload. The payload is cached before `filter` and `embed`
 * shape it, with how it was made (fetch mode and time) so that a HIT reports the same.
 */
export async function cachedPayload(
  services: Services,
  options: {
    params: Params;
    target: URL;
    meta: ResponseMeta;
    compute: () => Promise<Payload>;
  },
): Promise<{ json: string; payload: () => Payload }> {
  const { params, target, meta } = options;
  const { key } = cacheKey({
    url: target.href,
    params: params.canonical,
    credentials: params.headers,
    secret: await services.store.serverSecret(),
  });
  const result = await cached({
    store: services.store,
    key,
    ttlMs: params.ttlMs ?? DEFAULT_TTL_MS,
    staleTtlMs: params.staleTtlMs,
    force: params.force,
    compute: async () => {
      const payload = await options.compute();
      return {
        status: 200,
        headers: { "x-fetch-mode": meta.fetchMode, "x-fetch-time": String(meta.fetchTimeMs) },
        body: JSON.stringify(payload),
      };
    },
  });
  const { entry } = result;
  services.metrics.cache(result.status);
  meta.cacheStatus = result.status;
  meta.cacheTtlMs = result.ttlLeftMs;
  meta.timestamp = entry.createdAt;
  meta.fetchMode = (entry.headers["x-fetch-mode"] as ResponseMeta["fetchMode"]) ?? meta.fetchMode;
  meta.fetchTimeMs = Number(entry.headers["x-fetch-time"] ?? meta.fetchTimeMs);
  const json = typeof entry.body === "string" ? entry.body : new TextDecoder().decode(entry.body);
  // Parsed only when filter or embed needs the object; a plain hit sends the text as stored.
  return { json, payload: () => JSON.parse(json) as Payload };
}
