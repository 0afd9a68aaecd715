/** The production Resolver: the system's resolver (getaddrinfo, so /etc/hosts counts too). */
import { lookup } from "node:dns/promises";
import type { Resolver } from "./types.ts";
import { formatIp, parseIp } from "./ip.ts";

/**
 * Special-use names (RFC 6761, RFC 7686) that never exist in public DNS: answered "not found"
 * without asking anyone, so they cannot leak queries or be hijacked by a local resolver.
 */
const NEVER_RESOLVED = /(^|\.)(invalid|test|example|localhost|onion|local|internal)\.?$/i;

/** An IP literal (brackets allowed) in canonical form, or null for a name. */
export function ipLiteral(host: string): string | null {
  const ip = parseIp(host);
  return ip ? formatIp(ip) : null;
}

export class DnsError extends Error {
  constructor(readonly hostname: string, readonly reason: string) {
    super(`DNS lookup for "${hostname}" failed: ${reason}`);
    this.name = "DnsError";
  }
}

/** A and AAAA records of `hostname`; IP literals answer themselves without DNS. */
export const systemResolver: Resolver = async (hostname) => {
  const literal = ipLiteral(hostname);
  if (literal) return [literal];
  if (NEVER_RESOLVED.test(hostname)) throw new DnsError(hostname, "special-use name");
  try {
    const found = await lookup(hostname, { all: true, verbatim: true });
    return found.map((a) => ipLiteral(a.address) ?? a.address);
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    throw new DnsError(hostname, code);
  }
};
