/**
 * The plan check the handler runs once per API request (GET/HEAD): counts the request against
 * the daily limit and says who is asking, or throws the contract's EPRO / EAUTH / ERATE.
 */
import type { Config } from "../config/mod.ts";
import { ApiError } from "../util/errors.ts";
import type { KeyRecord, Store } from "../store/types.ts";
import { rateLimitKey } from "./client_ip.ts";
import { constantTimeEqual } from "./constant_time.ts";
import { dailyWindow, rateLimitHeaders, secondsToReset } from "./daily.ts";
import { findActiveKey } from "./keys.ts";
import { parseSignature, SIGNATURE_PARAM, signQuery } from "./sign.ts";

export interface Authorization {
  /** Rate-limit headers to add to the response (empty for a pro key without a quota). */
  headers: Record<string, string>;
  /** The key that authorised a pro request; null on free. */
  key: { id: string; name: string } | null;
  /** How a pro request proved itself. */
  via: "key" | "signature" | null;
}

export interface AuthorizeOptions {
  plan: "free" | "pro";
  /** From x-api-key or headers.apiKey; null when absent. */
  apiKey: string | null;
  /** The request's query; its `signature` parameter authorises a keyless pro request. */
  query: URLSearchParams | null;
  /** Client address from clientIp(). */
  ip: string;
  store: Store;
  config: Pick<Config, "freeDailyLimit">;
  /** Epoch ms; tests pin it. */
  now?: number;
}

const INVALID_KEY = "The API key is invalid or has been revoked.";

export async function authorize(options: AuthorizeOptions): Promise<Authorization> {
  const now = options.now ?? Date.now();
  if (options.plan === "free") {
    const headers = await count(options.store, {
      key: `free:${rateLimitKey(options.ip)}`,
      limit: options.config.freeDailyLimit,
      now,
    });
    if (options.apiKey !== null) {
      throw new ApiError(
        "EPRO",
        "An API key was sent to the free endpoint: use the pro endpoint.",
        {
          headers,
        },
      );
    }
    return { headers, key: null, via: null };
  }

  const { record, via } = await identify(options);
  const headers = record.dailyLimit === null ? {} : await count(options.store, {
    key: `key:${record.id}`,
    limit: record.dailyLimit,
    now,
  });
  return { headers, key: { id: record.id, name: record.name }, via };
}

async function identify(
  options: AuthorizeOptions,
): Promise<{ record: KeyRecord; via: "key" | "signature" }> {
  if (options.apiKey !== null) {
    const record = await findActiveKey(options.store, options.apiKey);
    if (!record) throw new ApiError("EAUTH", INVALID_KEY);
    return { record, via: "key" };
  }
  const query = options.query;
  const signature = query?.get(SIGNATURE_PARAM) ?? null;
  if (query === null || signature === null) {
    throw new ApiError(
      "EAUTH",
      "An API key is required: send it in the x-api-key header, or sign the URL.",
    );
  }
  const parsed = parseSignature(signature);
  const record = parsed ? await options.store.findKeyById(parsed.keyId) : null;
  const valid = parsed && record && record.revokedAt === null &&
    constantTimeEqual(parsed.mac, signQuery(record.signingSecret, query));
  if (!valid) {
    throw new ApiError("EAUTH", `The signature "${signature}" is not valid for this query.`);
  }
  return { record, via: "signature" };
}

/** Counts one request in today's window; ERATE (with Retry-After) beyond the limit. */
async function count(
  store: Store,
  options: { key: string; limit: number; now: number },
): Promise<Record<string, string>> {
  const window = dailyWindow(options.now);
  const used = await store.increment(`${options.key}:${window.day}`, window.resetAt, {
    limit: options.limit,
  });
  const headers = rateLimitHeaders({ limit: options.limit, used, window, now: options.now });
  if (used > options.limit) {
    throw new ApiError(
      "ERATE",
      `The daily limit of ${options.limit} requests has been reached; it resets at ${
        new Date(window.resetAt).toISOString()
      }.`,
      { headers: { ...headers, "retry-after": String(secondsToReset(window, options.now)) } },
    );
  }
  return headers;
}
