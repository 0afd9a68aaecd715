/**
 * What counts as a public address. Every IANA special-purpose range is refused; IPv6 forms
 * that embed an IPv4 address (mapped, translated, NAT64, 6to4) are judged by that address.
 */
import { embeddedV4, formatIp, inPrefix, type Ip, parseIp } from "./ip.ts";

interface Range {
  network: Ip;
  prefix: number;
  reason: string;
}

function range(cidr: string, reason: string): Range {
  const [text, prefix] = cidr.split("/");
  const network = parseIp(text!);
  if (!network) throw new Error(`bad built-in range ${cidr}`);
  return { network, prefix: Number(prefix), reason };
}

// IANA IPv4 Special-Purpose Address Registry (plus multicast and 240/4).
const V4: Range[] = [
  range("0.0.0.0/8", "this network"),
  range("10.0.0.0/8", "private"),
  range("100.64.0.0/10", "shared address space"),
  range("127.0.0.0/8", "loopback"),
  range("169.254.0.0/16", "link-local"),
  range("172.16.0.0/12", "private"),
  range("192.0.0.0/24", "IETF protocol assignments"),
  range("192.0.2.0/24", "documentation"),
  range("192.31.196.0/24", "AS112"),
  range("192.52.193.0/24", "AMT"),
  range("192.88.99.0/24", "6to4 relay anycast"),
  range("192.168.0.0/16", "private"),
  range("192.175.48.0/24", "AS112 direct delegation"),
  range("198.18.0.0/15", "benchmarking"),
  range("198.51.100.0/24", "documentation"),
  range("203.0.113.0/24", "documentation"),
  range("224.0.0.0/4", "multicast"),
  range("240.0.0.0/4", "reserved"),
];

// IPv6 ranges refused outright. Embedded-IPv4 forms are handled before these.
const V6: Range[] = [
  range("::/128", "unspecified"),
  range("::1/128", "loopback"),
  range("::/96", "IPv4-compatible (deprecated)"),
  range("64:ff9b:1::/48", "local-use NAT64"),
  range("100::/64", "discard-only"),
  range("100:0:0:1::/64", "dummy prefix"),
  range("2001::/32", "Teredo"),
  range("2001::/23", "IETF protocol assignments"),
  range("2001:db8::/32", "documentation"),
  range("2620:4f:8000::/48", "AS112 direct delegation"),
  range("3fff::/20", "documentation"),
  range("5f00::/16", "segment routing SIDs"),
  range("fc00::/7", "unique local"),
  range("fe80::/10", "link-local"),
  range("fec0::/10", "site-local (deprecated)"),
  range("ff00::/8", "multicast"),
];

// IPv6 ranges whose meaning is an embedded IPv4 address, with that address's byte offset.
const EMBEDDING: { range: Range; offset: number }[] = [
  { range: range("::ffff:0:0/96", "IPv4-mapped"), offset: 12 },
  { range: range("::ffff:0:0:0/96", "IPv4-translated"), offset: 12 },
  { range: range("64:ff9b::/96", "NAT64"), offset: 12 },
  { range: range("2002::/16", "6to4"), offset: 2 },
];

const GLOBAL_UNICAST = range("2000::/3", "");

function classifyIp(ip: Ip): string | null {
  if (ip.version === 4) {
    if (ip.bytes.every((b) => b === 255)) return "broadcast (255.255.255.255)";
    const hit = V4.find((r) => inPrefix(ip, r.network, r.prefix));
    return hit ? `${hit.reason} (${formatIp(hit.network)}/${hit.prefix})` : null;
  }
  for (const { range: r, offset } of EMBEDDING) {
    if (!inPrefix(ip, r.network, r.prefix)) continue;
    const v4 = embeddedV4(ip, offset);
    const inner = classifyIp(v4);
    return inner ? `${r.reason} ${formatIp(v4)}: ${inner}` : null;
  }
  const hit = V6.find((r) => inPrefix(ip, r.network, r.prefix));
  if (hit) return `${hit.reason} (${formatIp(hit.network)}/${hit.prefix})`;
  // Everything outside 2000::/3 is reserved by the IETF; nothing public lives there.
  if (!inPrefix(ip, GLOBAL_UNICAST.network, GLOBAL_UNICAST.prefix)) return "reserved IPv6";
  return null;
}

/**
 * Why an address is not public, or null when it is. Text that is not a canonical IP literal
 * is refused too: the guard must never be asked about anything else.
 */
export function classifyAddress(address: string): string | null {
  const ip = parseIp(address);
  if (!ip) return "not an IP address";
  return classifyIp(ip);
}

export function isForbiddenAddress(address: string): boolean {
  return classifyAddress(address) !== null;
}

/**
 * Why a host name (as WHATWG URL.hostname gives it) is refused before any DNS, or null.
 * `localhost` and `*.localhost` always mean this machine (RFC 6761), whatever DNS says.
 */
export function classifyHostname(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "" || name === "localhost" || name.endsWith(".localhost")) {
    return "a localhost name";
  }
  return null;
}
