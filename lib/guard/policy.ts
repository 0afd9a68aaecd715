/**
 * What counts as a public address. Every IANA special-purpose range is refused; IPv6 forms
 * that embed an IPv4 address (mapped, translated, NAT64, 6to4) are judged by that address.
 */
import { embeddedV4, formatIp, inPrefix, type Ip, parseIp } from "./ip.ts";
import type { Refusal, RefusalKind } from "./refusal.ts";

interface Range {
  network: Ip;
  prefix: number;
  reason: string;
  kind: RefusalKind;
}

function range(cidr: string, reason: string, kind: RefusalKind): Range {
  const [text, prefix] = cidr.split("/");
  const network = parseIp(text!);
  if (!network) throw new Error(`bad built-in range ${cidr}`);
  return { network, prefix: Number(prefix), reason, kind };
}

// IANA IPv4 Special-Purpose Address Registry (plus multicast and 240/4).
const V4: Range[] = [
  range("0.0.0.0/8", "this network", "unspecified"),
  range("10.0.0.0/8", "private", "private"),
  range("100.64.0.0/10", "shared address space", "private"),
  range("127.0.0.0/8", "loopback", "loopback"),
  range("169.254.0.0/16", "link-local", "link_local"),
  range("172.16.0.0/12", "private", "private"),
  range("192.0.0.0/24", "IETF protocol assignments", "reserved"),
  range("192.0.2.0/24", "documentation", "documentation"),
  range("192.31.196.0/24", "AS112", "reserved"),
  range("192.52.193.0/24", "AMT", "reserved"),
  range("192.88.99.0/24", "6to4 relay anycast", "reserved"),
  range("192.168.0.0/16", "private", "private"),
  range("192.175.48.0/24", "AS112 direct delegation", "reserved"),
  range("198.18.0.0/15", "benchmarking", "reserved"),
  range("198.51.100.0/24", "documentation", "documentation"),
  range("203.0.113.0/24", "documentation", "documentation"),
  range("224.0.0.0/4", "multicast", "multicast"),
  range("240.0.0.0/4", "reserved", "reserved"),
];

// IPv6 ranges refused outright. Embedded-IPv4 forms are handled before these.
const V6: Range[] = [
  range("::/128", "unspecified", "unspecified"),
  range("::1/128", "loopback", "loopback"),
  range("::/96", "IPv4-compatible (deprecated)", "embedded_ipv4"),
  range("64:ff9b:1::/48", "local-use NAT64", "private"),
  range("100::/64", "discard-only", "reserved"),
  range("100:0:0:1::/64", "dummy prefix", "reserved"),
  range("2001::/32", "Teredo", "reserved"),
  range("2001::/23", "IETF protocol assignments", "reserved"),
  range("2001:db8::/32", "documentation", "documentation"),
  range("2620:4f:8000::/48", "AS112 direct delegation", "reserved"),
  range("3fff::/20", "documentation", "documentation"),
  range("5f00::/16", "segment routing SIDs", "reserved"),
  range("fc00::/7", "unique local", "private"),
  range("fe80::/10", "link-local", "link_local"),
  range("fec0::/10", "site-local (deprecated)", "private"),
  range("ff00::/8", "multicast", "multicast"),
];

// IPv6 ranges whose meaning is an embedded IPv4 address, with that address's byte offset.
const EMBEDDING: { range: Range; offset: number }[] = [
  { range: range("::ffff:0:0/96", "IPv4-mapped", "embedded_ipv4"), offset: 12 },
  { range: range("::ffff:0:0:0/96", "IPv4-translated", "embedded_ipv4"), offset: 12 },
  { range: range("64:ff9b::/96", "NAT64", "embedded_ipv4"), offset: 12 },
  { range: range("2002::/16", "6to4", "embedded_ipv4"), offset: 2 },
];

const GLOBAL_UNICAST = range("2000::/3", "global unicast", "reserved");

const inRange = (r: Range): Refusal => ({
  kind: r.kind,
  reason: `${r.reason} (${formatIp(r.network)}/${r.prefix})`,
});

function classifyIp(ip: Ip): Refusal | null {
  if (ip.version === 4) {
    if (ip.bytes.every((b) => b === 255)) {
      return { kind: "reserved", reason: "broadcast (255.255.255.255)" };
    }
    const hit = V4.find((r) => inPrefix(ip, r.network, r.prefix));
    return hit ? inRange(hit) : null;
  }
  for (const { range: r, offset } of EMBEDDING) {
    if (!inPrefix(ip, r.network, r.prefix)) continue;
    const v4 = embeddedV4(ip, offset);
    const inner = classifyIp(v4);
    return inner ? { kind: r.kind, reason: `${r.reason} ${formatIp(v4)}: ${inner.reason}` } : null;
  }
  const hit = V6.find((r) => inPrefix(ip, r.network, r.prefix));
  if (hit) return inRange(hit);
  // Everything outside 2000::/3 is reserved by the IETF; nothing public lives there.
  if (!inPrefix(ip, GLOBAL_UNICAST.network, GLOBAL_UNICAST.prefix)) {
    return { kind: "reserved", reason: "reserved IPv6" };
  }
  return null;
}

/**
 * Why an address is not public (its kind and the range it fell in), or null when it is. Text
 * that is not a canonical IP literal is refused too: the guard must never be asked about
 * anything else.
 */
export function addressRefusal(address: string): Refusal | null {
  const ip = parseIp(address);
  if (!ip) return { kind: "not_an_ip", reason: "not an IP address" };
  return classifyIp(ip);
}

/**
 * Why a host name (as WHATWG URL.hostname gives it) is refused before any DNS, or null.
 * `localhost` and `*.localhost` always mean this machine (RFC 6761), whatever DNS says.
 */
export function hostnameRefusal(hostname: string): Refusal | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "" || name === "localhost" || name.endsWith(".localhost")) {
    return { kind: "localhost_name", reason: "a localhost name" };
  }
  return null;
}
