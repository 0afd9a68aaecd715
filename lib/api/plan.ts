import type { Config } from "../config.ts";
import type { Plan } from "./respond.ts";

/** Contract: pro is chosen by the Host (PRO_HOSTS, or first label `pro`) or by PRO_PORT. */
export function selectPlan(request: Request, config: Config, arrivedOnProPort: boolean): Plan {
  if (arrivedOnProPort) return "pro";
  const host = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
  const hostname = host.replace(/:\d+$/, "").replace(/\.$/, "");
  if (config.proHosts) return config.proHosts.includes(hostname) ? "pro" : "free";
  return hostname.split(".")[0] === "pro" && hostname.includes(".") ? "pro" : "free";
}

/** The API key from the x-api-key header, else from headers.apiKey in any case style. */
export function apiKeyOf(request: Request, query: URLSearchParams): string | null {
  const header = request.headers.get("x-api-key");
  if (header) return header;
  for (const [name, value] of query) {
    const normalised = name.toLowerCase().replace(/[_-]/g, "");
    if (normalised === "headers.apikey" || normalised === "headers.xapikey") return value;
  }
  return null;
}
