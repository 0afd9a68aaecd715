/**
 * Strict IP address literals as bytes: parsing, canonical text, prefix matching.
 * Only the canonical forms are accepted here (dotted-quad IPv4, RFC 4291 IPv6 text); the
 * exotic IPv4 spellings are normalised earlier by the WHATWG URL parser.
 */

export interface Ip {
  version: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
}

const V4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Parses `a.b.c.d` with four decimal parts, no leading zeros. */
export function parseIpv4(text: string): Ip | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!V4_PART.test(part)) return null;
    bytes[i] = Number(part);
  }
  return { version: 4, bytes };
}

/** Parses RFC 4291 text (`::`, embedded dotted IPv4 tail); brackets and zone ids refused. */
export function parseIpv6(text: string): Ip | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const parts = half.split(":");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = parseIpv4(part);
        if (!v4) return null;
        out.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
        out.push(parseInt(part, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  // A dotted tail is only valid at the very end of the address.
  if (halves.length === 2 && halves[0]!.includes(".")) return null;
  const total = head.length + tail.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return null;
  const all = [...head, ...new Array(8 - total).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return { version: 6, bytes };
}

/** Either family; IPv6 may be written in brackets (as URL hosts are). */
export function parseIp(text: string): Ip | null {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return parseIpv4(bare) ?? parseIpv6(bare);
}

/** Canonical text: dotted IPv4, RFC 5952 compressed lower-case IPv6. */
export function formatIp(ip: Ip): string {
  if (ip.version === 4) return Array.from(ip.bytes).join(".");
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
  // Longest run of two or more zero groups, first one on a tie.
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  const left = hex.slice(0, bestStart).join(":");
  const right = hex.slice(bestStart + bestLen).join(":");
  return `${left}::${right}`;
}

/** True when `ip` lies in network/prefix (same family only). */
export function inPrefix(ip: Ip, network: Ip, prefix: number): boolean {
  if (ip.version !== network.version) return false;
  let bits = prefix;
  for (let i = 0; i < ip.bytes.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip.bytes[i]! & mask) !== (network.bytes[i]! & mask)) return false;
  }
  return true;
}

/** The IPv4 address held in four bytes of an IPv6 address, starting at `offset`. */
export function embeddedV4(ip: Ip, offset: number): Ip {
  return { version: 4, bytes: ip.bytes.slice(offset, offset + 4) };
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as dual-stack sockets report IPv4 peers) as IPv4. */
export function unmapV4(ip: Ip): Ip {
  const b = ip.bytes;
  const mapped = ip.version === 6 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff &&
    b[11] === 0xff;
  return mapped ? embeddedV4(ip, 12) : ip;
}
