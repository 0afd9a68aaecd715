import type { Config } from "../config/mod.ts";
import type { BoundedMap } from "../util/bounded_map.ts";
import type { Plan } from "./respond.ts";
import { isApiKeyHeader } from "../params/mod.ts";
import { toCamel } from "../params/tree.ts";

/** Contract: pro is chosen by the Host (PRO_HOSTS, or first label `pro`) or by PRO_PORT. */
export function selectPlan(
  request: Request,
  services: { config: Config; memo: { plans: BoundedMap<string, Plan> } },
  arrivedOnProPort: boolean,
): Plan {
  if (arrivedOnProPort) return "pro";
  const host = request.headers.get("host") ?? new URL(request.url).host;
  const plans = services.memo.plans;
  let plan = plans.get(host);
  if (plan === undefined) plans.set(host, plan = planOfHost(host, services.config));
  return plan;
}

function planOfHost(host: string, config: Config): Plan {
  const hostname = host.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  if (config.proHosts) return config.proHosts.includes(hostname) ? "pro" : "free";
  return hostname.split(".")[0] === "pro" && hostname.includes(".") ? "pro" : "free";
}

/** The API key from the x-api-key header, else the query's headers.apiKey (see queryApiKey). */
export function apiKeyOf(request: Request, queryKey: string | null): string | null {
  return request.headers.get("x-api-key") || queryKey;
}

/** headers.apiKey (any case style, or headers.x-api-key) from a query; the last one wins. */
export function queryApiKey(query: URLSearchParams): string | null {
  let key: string | null = null;
  for (const [name, value] of query) {
    const dot = name.indexOf(".");
    if (
      dot > 0 && toCamel(name.slice(0, dot)) === "headers" && isApiKeyHeader(name.slice(dot + 1))
    ) {
      key = value;
    }
  }
  return key;
}
