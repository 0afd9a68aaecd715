import { authorize, clientIp } from "../plans/mod.ts";
import type { Services } from "../services/mod.ts";
import type { Plan } from "./respond.ts";

/**
 * Counts the request against its plan and checks its key or signature; returns the rate-limit
 * headers to send, or throws EPRO / EAUTH / ERATE / EUNAVAILABLE.
 */
export async function admit(
  services: Services,
  request: {
    plan: Plan;
    apiKey: string | null;
    /** The request URL: its query is read only for a signed pro request. */
    url: URL;
    remoteAddr: string;
    forwardedFor: string | null;
  },
): Promise<Record<string, string>> {
  const ip = clientIp({
    remoteAddr: request.remoteAddr,
    xForwardedFor: request.forwardedFor,
    trustedProxies: services.config.trustedProxies,
  });
  const authorization = await authorize({
    plan: request.plan,
    apiKey: request.apiKey,
    query: request.plan === "pro" ? request.url.searchParams : null,
    ip,
    store: services.store,
    config: services.config,
  });
  return authorization.headers;
}
