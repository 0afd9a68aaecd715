/**
 * Resolve once, check every address, and hand back exactly the addresses to dial, so that
 * the address checked is the address connected to (no DNS-rebinding gap).
 */
import { abortable } from "../util/deadline.ts";
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { addressRefusal, hostnameRefusal } from "./policy.ts";
import { countRefusal, type Refusal, type RefusalStage } from "./refusal.ts";
import { DnsError, ipLiteral, systemResolver } from "./resolve.ts";
import { isTrusted } from "./trusted.ts";
import type { NetworkHooks, TrustedTarget } from "./types.ts";

/** What the guard reads: its own options (the network hooks and two settings), not the config. */
export interface GuardConfig extends NetworkHooks {
  /** TRUSTED_TARGETS: address ranges and ports let through. */
  trustedTargets: TrustedTarget[];
  /** linkpeek's own ports: the configured ones and those it opened since (a Fetcher's). */
  ownPorts: { includes(port: number): boolean };
}

/** One checked address and where to dial it (the connector's mapping of it). */
export interface PinnedAddress {
  address: string;
  host: string;
  port: number;
}

export interface PinOptions {
  config: GuardConfig;
  /** How the target is named in error messages, e.g. `The URL "http://x/"`. */
  subject: string;
  signal?: AbortSignal;
  /** Where this check happens, for the refusal metric; default "request" (a first hop). */
  stage?: RefusalStage;
}

/**
 * Why address:port may not be dialled, or null. Trust never covers linkpeek's own ports on a
 * non-public address: the service must not be turned against itself.
 */
export function refusal(address: string, port: number, config: GuardConfig): Refusal | null {
  const found = addressRefusal(address);
  if (found === null) return null;
  if (config.ownPorts.includes(port)) {
    return { kind: "own_port", reason: `${found.reason}, linkpeek's own port ${port}` };
  }
  return isTrusted(address, port, config.trustedTargets) ? null : found;
}

/** Resolves `host` (a URL hostname or IP literal) and checks every address it has. */
export async function pinHost(
  target: { host: string; port: number },
  options: PinOptions,
): Promise<PinnedAddress[]> {
  const { config, subject } = options;
  options.signal?.throwIfAborted();
  const forbidden = ({ kind, reason }: Refusal, address?: string) => {
    countRefusal(kind, options.stage ?? "request");
    const why = address ? `${address}: ${reason}` : reason;
    log.info("guard refused target", { host: target.host, port: target.port, kind, why });
    return new ApiError("EFORBIDDENURL", `${subject} resolves to a forbidden address.`);
  };
  const nameRefusal = hostnameRefusal(target.host);
  if (nameRefusal) throw forbidden(nameRefusal);

  const literal = ipLiteral(target.host);
  let addresses: string[];
  if (literal) {
    addresses = [literal];
  } else {
    const resolver = config.resolver ?? systemResolver;
    try {
      addresses = await abortable(resolver(target.host), options.signal);
    } catch (error) {
      if (options.signal?.aborted && error === options.signal.reason) throw error;
      const why = error instanceof DnsError ? error.reason : String(error);
      throw new ApiError("EFETCH", `${subject} could not be reached: DNS lookup failed (${why}).`);
    }
    addresses = addresses.map((a) => ipLiteral(a) ?? a);
  }
  if (addresses.length === 0) {
    throw new ApiError("EFETCH", `${subject} could not be reached: the name has no address.`);
  }
  // Refuse if ANY address is not allowed: a mixed answer is how rebinding attacks start.
  for (const address of addresses) {
    const refused = refusal(address, target.port, config);
    if (refused) throw forbidden(refused, address);
  }
  // IPv4 first: hosts without IPv6 routes are common, the reverse is rare.
  const ordered = [...addresses].sort((a, b) => Number(a.includes(":")) - Number(b.includes(":")));
  const connector = config.connector ?? ((host: string, port: number) => ({ host, port }));
  return ordered.map((address) => ({ address, ...connector(address, target.port) }));
}
