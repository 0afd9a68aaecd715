/**
 * Idle keep-alive connections of direct hops, kept for the next request with the same key. A key
 * names everything that made the connection safe and correct: the scheme, the checked address
 * and where it was dialled, and for TLS the name it was verified for and the CA set it trusted.
 * The guard still checks every request; a connection only skips the connect (and handshake).
 *
 * An idle connection is watched: one read stays pending on it. Whatever that read gets while the
 * connection waits (a 408 sent before closing, a stray body, the server's close, an error) ends
 * it, since those bytes answer no request; when a request takes it, the read goes along as that
 * exchange's first read, so no byte is lost or read twice and one read at most is pending.
 */
import type { PinnedAddress } from "../guard/pin.ts";

/** How many connections wait, and for how long. */
export interface PoolLimits {
  /** Idle time before a connection is closed; shorter than servers' own (nginx 75 s, Node 5 s). */
  idleMs: number;
  /** Idle connections kept per key. */
  perKey: number;
  /** Idle connections kept in all; the least recently used is closed first. */
  total: number;
}

export const POOL_DEFAULTS: PoolLimits = { idleMs: 2_000, perKey: 2, total: 32 };

/**
 * Connections of direct hops since the start: opened, taken from a pool, and kept ones the
 * server closed (or spoke on unasked), found while idle or by the request sent on them.
 */
export const CONNECTION_KINDS = ["new", "reused", "stale"] as const;
export type ConnectionKind = typeof CONNECTION_KINDS[number];
const counts: Record<ConnectionKind, number> = { new: 0, reused: 0, stale: 0 };

export function countConnection(kind: ConnectionKind): void {
  counts[kind] += 1;
}

export function connectionCount(kind: ConnectionKind): number {
  return counts[kind];
}

/** A CA set by identity (the fetcher's own array): equal contents from elsewhere never match. */
const caIds = new WeakMap<string[], number>();
let lastCaId = 0;
function caIdentity(ca: string[] | undefined): number {
  if (!ca) return 0;
  const id = caIds.get(ca) ?? ++lastCaId;
  caIds.set(ca, id);
  return id;
}

/** The key of a connection to `target` for `url`; `serverName` is the name TLS verified. */
export function connectionKey(
  url: URL,
  target: PinnedAddress,
  tls: { serverName: string; ca: string[] | undefined } | null,
): string {
  const dialled = `${target.address} ${target.host} ${target.port}`;
  return tls
    ? `${url.protocol} ${dialled} ${tls.serverName} ${caIdentity(tls.ca)}`
    : `${url.protocol} ${dialled}`;
}

/** A connection between two exchanges, with the buffer its reads go into. */
export interface KeptConnection {
  conn: Deno.Conn;
  buffer: Uint8Array;
  /** Taken from a pool: the read begun when it went idle, the next exchange's first read. */
  pendingRead?: Promise<number | null>;
}

interface Idle extends KeptConnection {
  key: string;
  pendingRead: Promise<number | null>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Closes `conn` unless it is closed already (by the server, or a failed TLS handshake). */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}

export class ConnectionPool {
  readonly #limits: PoolLimits;
  /** Every idle connection, least recently released first (a Set keeps insertion order). */
  readonly #idle = new Set<Idle>();
  readonly #byKey = new Map<string, Idle[]>();
  #closed = false;

  constructor(limits: Partial<PoolLimits> = {}) {
    this.#limits = { ...POOL_DEFAULTS, ...limits };
    if (this.#limits.perKey < 1 || this.#limits.total < 1) {
      throw new RangeError("a connection pool keeps at least one connection per key and in all");
    }
  }

  /** Idle connections now. */
  get size(): number {
    return this.#idle.size;
  }

  /**
   * The most recently released idle connection for `key`, now the caller's, or null. Its
   * `pendingRead` must be the first read of the caller's exchange.
   */
  take(key: string): KeptConnection | null {
    const entry = this.#byKey.get(key)?.at(-1);
    if (!entry) return null;
    this.#forget(entry);
    entry.conn.ref();
    countConnection("reused");
    const { conn, buffer, pendingRead } = entry;
    return { conn, buffer, pendingRead };
  }

  /**
   * Keeps `conn`, whose last exchange ended cleanly (every byte it read was consumed), for the
   * next request with `key`; `buffer` is free for the read that watches it while idle.
   */
  release(key: string, { conn, buffer }: KeptConnection): void {
    if (this.#closed) return closeQuietly(conn);
    // Make room first: dropping may empty (and so forget) this key's list.
    const own = this.#byKey.get(key);
    if (own && own.length >= this.#limits.perKey) this.#drop(own[0]!);
    if (this.#idle.size >= this.#limits.total) this.#drop(this.#idle.values().next().value!);
    // An idle connection never keeps the process alive: neither its read nor its timer.
    conn.unref();
    const entry: Idle = { key, conn, buffer, pendingRead: conn.read(buffer), timer: undefined };
    // Handled here whatever the read gets, so a read failed by close() is no unhandled rejection.
    const spoiled = () => this.#spoiled(entry);
    entry.pendingRead.then(spoiled, spoiled);
    const timer = setTimeout(() => this.#drop(entry), this.#limits.idleMs);
    Deno.unrefTimer(timer);
    entry.timer = timer;
    const list = this.#byKey.get(key) ?? [];
    this.#byKey.set(key, list);
    list.push(entry);
    this.#idle.add(entry);
  }

  /** Closes every idle connection; connections released later are closed at once. */
  close(): void {
    this.#closed = true;
    for (const entry of [...this.#idle]) this.#drop(entry);
  }

  /** The watching read ended: if the connection still waits here, it is over. */
  #spoiled(entry: Idle): void {
    if (!this.#idle.has(entry)) return; // taken (the read is the exchange's now) or dropped
    this.#drop(entry);
    countConnection("stale");
  }

  #drop(entry: Idle): void {
    this.#forget(entry);
    closeQuietly(entry.conn);
  }

  #forget(entry: Idle): void {
    clearTimeout(entry.timer);
    if (!this.#idle.delete(entry)) return;
    const list = this.#byKey.get(entry.key)!;
    list.splice(list.indexOf(entry), 1);
    if (list.length === 0) this.#byKey.delete(entry.key);
  }
}
