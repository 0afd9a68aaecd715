import type { Config } from "../config/mod.ts";
import { findDevice, parseBackground } from "../browser/mod.ts";
import { isCredentialHeader } from "../cache/mod.ts";
import { type CustomRules, validateRules } from "../extract/custom/mod.ts";
import { type Params, parseParams } from "../params/mod.ts";
import { parseTargetUrl } from "../util/target_url.ts";
import { queryApiKey } from "./plan.ts";
import type { BoundedMap } from "../util/bounded_map.ts";

/** What a query string asks for, checked: typed parameters and the target URL. */
export interface Prepared {
  params: Params;
  target: URL;
  /** Credentials in headers.* or the URL: the answer is private. */
  credentialed: boolean;
  /** The `data` custom rules, checked; null without any. */
  rules: CustomRules | null;
  /** An API key sent as headers.apiKey, if any (it is never forwarded). */
  apiKey: string | null;
}

function check(query: URLSearchParams, config: Config): Prepared {
  const params = parseParams(query, { maxTimeoutMs: config.requestTimeoutMs });
  const target = parseTargetUrl(params.url);
  // Values only a later step reads are checked now, before any traffic leaves.
  const rules = params.data === null ? null : validateRules(params.data);
  const background = params.screenshot?.overlay?.background;
  if (background !== undefined) parseBackground(background);
  if (params.page.device !== undefined) findDevice(params.page.device);
  const credentialed = target.username !== "" || target.password !== "" ||
    Object.keys(params.headers).some(isCredentialHeader) || params.proxy !== null;
  return { params, target, credentialed, rules, apiKey: queryApiKey(query) };
}

/**
 * Reads and checks a query; throws EINVALQUERY / EINVALURL naming what is wrong. Popular
 * queries (the same embed URL on many pages) repeat verbatim, so their checked form is kept
 * (`memo.prepared`, bounded). Credentialed queries are never kept. Nothing downstream modifies
 * a Prepared.
 */
export function prepare(
  url: URL,
  services: { config: Config; memo: { prepared: BoundedMap<string, Prepared> } },
): Prepared {
  const kept = services.memo.prepared;
  const known = kept.get(url.search);
  if (known) return known;
  const prepared = check(url.searchParams, services.config);
  if (!prepared.credentialed) kept.set(url.search, prepared);
  return prepared;
}
