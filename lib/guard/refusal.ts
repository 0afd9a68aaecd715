/**
 * Guard refusals as data (smokescreen's classifyAddr): a kind from a fixed list, named once here,
 * feeds both the log line and the `linkpeek_guard_refusals_total` metric; the reason is the
 * human text (which range, which embedded address). Neither ever holds a URL or a host name.
 */

export const REFUSAL_KINDS = [
  /** RFC 1918, unique local (fc00::/7), site-local, shared address space, local-use NAT64. */
  "private",
  /** 127.0.0.0/8, ::1. */
  "loopback",
  /** 169.254.0.0/16, fe80::/10. */
  "link_local",
  /** 224.0.0.0/4, ff00::/8. */
  "multicast",
  /** 0.0.0.0/8, ::. */
  "unspecified",
  /** TEST-NET-1/2/3, 2001:db8::/32, 3fff::/20. */
  "documentation",
  /** Everything else IANA sets aside: 240/4, benchmarking, AS112, Teredo, non-2000::/3 ... */
  "reserved",
  /** An IPv6 form (mapped, translated, NAT64, 6to4, compatible) carrying a refused IPv4. */
  "embedded_ipv4",
  /** `localhost` and `*.localhost`, refused before any DNS. */
  "localhost_name",
  /** A resolver answered something that is not an IP address. */
  "not_an_ip",
  /** A trusted address on one of linkpeek's own ports (its API, browser proxy or Redis). */
  "own_port",
] as const;
export type RefusalKind = typeof REFUSAL_KINDS[number];

/** Where the guard met the address: a fetch's first hop, a redirect hop, or the browser. */
export const REFUSAL_STAGES = ["request", "redirect", "browser"] as const;
export type RefusalStage = typeof REFUSAL_STAGES[number];

export interface Refusal {
  kind: RefusalKind;
  /** What matched, e.g. `private (10.0.0.0/8)`; for logs and tests, never a label. */
  reason: string;
}

/** Refusals since the process started, by kind and stage: the guard is process-wide. */
const counts = new Map<string, number>();
const key = (kind: RefusalKind, stage: RefusalStage) => `${kind}|${stage}`;

export function countRefusal(kind: RefusalKind, stage: RefusalStage): void {
  counts.set(key(kind, stage), (counts.get(key(kind, stage)) ?? 0) + 1);
}

export function refusalCount(kind: RefusalKind, stage: RefusalStage): number {
  return counts.get(key(kind, stage)) ?? 0;
}
