import { cached, cacheKey, DEFAULT_TTL_MS, type Entry } from "../cache/mod.ts";
import type { Params } from "../params/mod.ts";
import type { Services } from "../services/mod.ts";
import type { Payload, PayloadResult } from "./payload.ts";
import type { ResponseMeta } from "./respond.ts";

/** The payload text of an entry, decoded once per entry object (hits share decoded entries). */
const texts = new WeakMap<Entry, string>();
const decoder = new TextDecoder();

function jsonOf(entry: Entry): string {
  if (typeof entry.payload === "string") return entry.payload;
  let text = texts.get(entry);
  if (text === undefined) texts.set(entry, text = decoder.decode(entry.payload));
  return text;
}

/** Cache keys by the (kept, unchanging) parameters they were made from. */
const keys = new WeakMap<Params, { secret: Uint8Array; scope: string; key: string }>();

function keyFor(params: Params, target: URL, secret: Uint8Array, scope = ""): string {
  const known = keys.get(params);
  if (known?.secret === secret && known.scope === scope) return known.key;
  const { key } = cacheKey({
    url: target.href,
    // No query parameter starts with ":": a scope cannot be asked for through the API.
    params: scope ? [...params.canonical, [":scope", scope]] : params.canonical,
    // A proxy (and its password) enters only the HMAC, like headers.* credentials.
    credentials: params.proxy
      ? {
        ...params.headers,
        ":proxy": params.proxy.url.href,
        ":proxy-auth": params.proxy.authorization ?? "",
      }
      : params.headers,
    secret,
  });
  keys.set(params, { secret, scope, key });
  return key;
}

/**
 * The response cache around buildPayload. The payload is cached before `filter` and `embed`
 * shape it, with how it was made (fetch mode and time) so that a HIT reports the same. Its
 * time goes to the `cache` phase (the lookup) and the `store` phase (encoding and writing).
 */
export async function cachedPayload(
  services: Services,
  options: {
    params: Params;
    target: URL;
    meta: ResponseMeta;
    /** `abandoned`: aborts when no request waits for it any more (CachedOptions.compute). */
    compute: (abandoned: AbortSignal) => Promise<PayloadResult>;
    /** Aborts when the client went away (CachedOptions.signal). */
    signal?: AbortSignal;
    /** Bounds the wait for a computation this request joined (CachedOptions). */
    wait?: <T>(work: Promise<T>) => Promise<T>;
    /** Must succeed before anything is answered or computed (the plan check). */
    gate?: Promise<unknown>;
    /** An endpoint's own part of the cache (Endpoint.cacheScope). */
    scope?: string;
  },
): Promise<{ json: string; payload: () => Payload }> {
  const { params, target, meta } = options;
  const { timings } = meta;
  const started = performance.now();
  let computed = 0;
  const key = keyFor(params, target, await services.store.serverSecret(), options.scope);
  const result = await cached({
    store: services.store,
    key,
    ttlMs: params.ttlMs ?? DEFAULT_TTL_MS,
    staleTtlMs: params.staleTtlMs,
    force: params.force,
    gate: options.gate,
    wait: options.wait,
    signal: options.signal,
    compute: async (abandoned) => {
      timings.add("cache", performance.now() - started);
      const { payload, fetchMode, fetchTimeMs } = await options.compute(abandoned);
      computed = performance.now();
      return { payload: JSON.stringify(payload), fetchMode, fetchTimeMs };
    },
  });
  if (computed) timings.add("store", performance.now() - computed);
  else timings.add("cache", performance.now() - started);
  const { entry } = result;
  services.metrics.cache(result.status);
  meta.cacheStatus = result.status;
  meta.cacheTtlMs = result.ttlLeftMs;
  meta.timestamp = entry.createdAt;
  meta.fetchMode = entry.fetchMode;
  meta.fetchTimeMs = entry.fetchTimeMs;
  const json = jsonOf(entry);
  // Parsed only when filter or embed needs the object; a plain hit sends the text as stored.
  return { json, payload: () => JSON.parse(json) as Payload };
}
