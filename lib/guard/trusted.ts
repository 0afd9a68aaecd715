/**
 * TRUSTED_TARGETS: address ranges (with a port) exempt from the address guard, for tests and
 * intranets. linkpeek's own ports are refused elsewhere even when listed here.
 */
import type { TrustedTarget } from "./types.ts";
import { formatIp, inPrefix, parseIp, parseIpv4, parseIpv6, unmapV4 } from "./ip.ts";

function bad(entry: string, why: string): Error {
  return new Error(
    `TRUSTED_TARGETS entry "${entry}" is invalid: ${why} ` +
      `(expected ip:port, cidr:port, [ipv6]:port or [ipv6/prefix]:port; port may be *)`,
  );
}

function parsePort(entry: string, text: string): number | null {
  if (text === "*") return null;
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw bad(entry, `port "${text}" must be 1-65535 or *`);
  }
  return Number(text);
}

function parseEntry(entry: string): TrustedTarget {
  let addressPart: string;
  let portPart: string;
  const bracket = /^\[([^\]]+)\](\/\d+)?:([^:]+)$/.exec(entry);
  if (bracket) {
    addressPart = bracket[1]! + (bracket[2] ?? "");
    portPart = bracket[3]!;
  } else {
    const colon = entry.lastIndexOf(":");
    if (colon < 0) throw bad(entry, "port is required");
    addressPart = entry.slice(0, colon);
    portPart = entry.slice(colon + 1);
    if (addressPart.includes(":")) throw bad(entry, "IPv6 addresses must be in brackets");
  }
  const [ipText, prefixText, ...rest] = addressPart.split("/");
  if (rest.length) throw bad(entry, "more than one /");
  const ip = bracket ? parseIpv6(ipText!) : parseIpv4(ipText!);
  if (!ip) throw bad(entry, `"${ipText}" is not an IP address`);
  const max = ip.version === 4 ? 32 : 128;
  let prefix = max;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
      throw bad(entry, `prefix "/${prefixText}" must be 0-${max}`);
    }
    prefix = Number(prefixText);
  }
  return { network: formatIp(ip), prefix, port: parsePort(entry, portPart) };
}

/** Parses the comma-separated TRUSTED_TARGETS value; throws an Error naming a bad entry. */
export function parseTrustedTargets(text: string): TrustedTarget[] {
  return text.split(",").map((s) => s.trim()).filter(Boolean).map(parseEntry);
}

/** True when address:port is covered by an entry of `list`. */
export function isTrusted(address: string, port: number, list: TrustedTarget[]): boolean {
  const parsed = parseIp(address);
  if (!parsed) return false;
  const ip = unmapV4(parsed); // ::ffff:a.b.c.d matches IPv4 entries as its IPv4 self
  return list.some((t) => {
    if (t.port !== null && t.port !== port) return false;
    const network = parseIp(t.network);
    return network !== null && inPrefix(ip, network, t.prefix);
  });
}
