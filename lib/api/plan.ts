import type { Config } from "../config.ts";
import type { Plan } from "./respond.ts";
import { isApiKeyHeader } from "../params/mod.ts";
import { toCamel } from "../params/tree.ts";

/** Contract: pro is chosen by the Host (PRO_HOSTS, or first label `pro`) or by PRO_PORT. */
export function selectPlan(request: Request, config: Config, arrivedOnProPort: boolean): Plan {
  if (arrivedOnProPort) return "pro";
  const host = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
  const hostname = host.replace(/:\d+$/, "").replace(/\.$/, "");
  if (config.proHosts) return config.proHosts.includes(hostname) ? "pro" : "free";
  return hostname.split(".")[0] === "pro" && hostname.includes(".") ? "pro" : "free";
}

/** The API key from the x-api-key header, else from headers.apiKey in any spelling. */
export function apiKeyOf(request: Request, query: URLSearchParams): string | null {
  const header = request.headers.get("x-api-key");
  if (header) return header;
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
