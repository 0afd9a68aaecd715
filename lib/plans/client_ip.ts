/**
 * Who is asking: the socket address, or the X-Forwarded-For client when the socket belongs to
 * a TRUSTED_PROXIES entry; and the key the free daily limit is counted under.
 */
import { formatIp, inPrefix, type Ip, parseIp, unmapV4 } from "../guard/ip.ts";

/** Dotted IPv4 as sockets write it: already canonical. */
const PLAIN_IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Parses an address as sockets and proxies write it: brackets, zone ids, IPv4-mapped IPv6. */
function parseAddress(text: string): Ip | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const ip = parseIp(bare);
  return ip && unmapV4(ip);
}

function parseProxy(entry: string): { network: Ip; prefix: number } | null {
  const [address = "", bits] = entry.trim().split("/");
  const network = parseAddress(address);
  if (!network) return null;
  const max = network.version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  return Number.isInteger(prefix) && prefix >= 0 && prefix <= max ? { network, prefix } : null;
}

/**
 * The client's address in canonical text. X-Forwarded-For is read right to left, skipping
 * trusted proxies, only when the socket peer itself is a trusted proxy.
 */
export function clientIp(options: {
  remoteAddr: string;
  xForwardedFor?: string | null;
  /** Addresses or CIDRs (`10.0.0.0/8`, `::1`). */
  trustedProxies: readonly string[];
}): string {
  // The common case, a direct IPv4 peer and no proxies, needs no parsing.
  if (options.trustedProxies.length === 0 && PLAIN_IPV4.test(options.remoteAddr)) {
    return options.remoteAddr;
  }
  const proxies = options.trustedProxies.map(parseProxy).filter((p) => p !== null);
  const trusted = (ip: Ip) => proxies.some((p) => inPrefix(ip, p.network, p.prefix));
  const peer = parseAddress(options.remoteAddr);
  if (!peer) return options.remoteAddr;
  let client = peer;
  if (trusted(peer) && options.xForwardedFor) {
    const hops = options.xForwardedFor.split(",").reverse();
    for (const hop of hops) {
      const ip = parseAddress(hop);
      // A garbled entry could be anything the client wrote: stop at the last good hop.
      if (!ip) break;
      client = ip;
      if (!trusted(ip)) break;
    }
  }
  return formatIp(client);
}

/** The free limit's bucket: the IPv4 address, or the IPv6 /64 (one subscriber's network). */
export function rateLimitKey(ip: string): string {
  if (PLAIN_IPV4.test(ip)) return ip;
  const parsed = parseAddress(ip);
  if (!parsed) return ip;
  if (parsed.version === 4) return formatIp(parsed);
  const bytes = new Uint8Array(16);
  bytes.set(parsed.bytes.subarray(0, 8));
  return `${formatIp({ version: 6, bytes })}/64`;
}
