/**
 * One HTTP request to one checked address, on Deno's own sockets: the TCP connection goes to
 * the pinned IP, while the Host header and TLS (SNI and certificate check) use the URL's real
 * host name. node:http, which Deno emulates in layers of streams, took twice as long for the
 * same exchange. With a pool, a connection whose exchange ended cleanly is kept for the next
 * request with the same key (see ConnectionPool). A hop through a proxy's tunnel is
 * sendThroughTunnel's, one connection per request.
 */
import { Buffer } from "node:buffer";
import { ipLiteral } from "../guard/resolve.ts";
import { joinRawHeaders } from "./headers.ts";
import { type AnswerHead, answerParser, requestHead } from "./http1.ts";
import {
  closeQuietly,
  connectionKey,
  type ConnectionPool,
  countConnection,
  type KeptConnection,
} from "./pool.ts";
import { sendThroughTunnel } from "./tunnel_hop.ts";
import type { HopRequest, HopResponse } from "./types.ts";

export type { HopRequest, HopResponse } from "./types.ts";

/** Thrown when the TCP connection could not be set up (another address may be tried). */
export class ConnectError extends Error {
  constructor(override readonly cause: unknown, readonly timedOut = false) {
    super(timedOut ? "connect timeout" : String((cause as Error)?.message ?? cause));
    this.name = "ConnectError";
  }
}

/** Bytes read from the socket at a time. */
const READ_SIZE = 64 * 1024;

export async function sendHop(hop: HopRequest): Promise<HopResponse> {
  // Through a proxy the request must cross the tunnel opened to the pinned address.
  if (hop.tunnel) return await sendThroughTunnel({ ...hop, tunnel: hop.tunnel });
  // Already aborted: fail before any socket exists.
  hop.signal.throwIfAborted();
  const { pool } = hop;
  if (!pool) return await exchange(withBuffer(await openConnection(hop)), hop, null);
  const https = hop.url.protocol === "https:";
  const key = connectionKey(
    hop.url,
    hop.target,
    https ? { serverName: serverName(hop.url), ca: hop.ca } : null,
  );
  const kept = pool.take(key);
  if (kept) {
    try {
      return await exchange(kept, hop, { pool, key, reused: true });
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      // The server closed it as the request went out, or it held bytes the last answer sent
      // late (a body after a HEAD answer): once more on a new connection (GET and HEAD are
      // idempotent, and no answer was read).
      countConnection("stale");
    }
  }
  const fresh = withBuffer(await openConnection(hop));
  return await exchange(fresh, hop, { pool, key, reused: false });
}

/** Where an exchange's connection goes when it ends: back to `pool` under `key` if clean. */
interface Reuse {
  pool: ConnectionPool;
  key: string;
  /** Taken from the pool (it may have been closed by the server meanwhile). */
  reused: boolean;
}

/** A reused connection that failed before an answer's head: the request may be sent again. */
class StaleConnection extends Error {
  constructor(override readonly cause: unknown) {
    super("kept-alive connection closed by the server, or holding a previous answer's bytes");
  }
}

/** The name TLS is verified for: an IP literal against the certificate's IP addresses. */
function serverName(url: URL): string {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  return ipLiteral(hostname) ?? hostname;
}

/** A new connection and the buffer its reads go into, kept with it while it lives. */
function withBuffer(conn: Deno.Conn): KeptConnection {
  return { conn, buffer: new Uint8Array(READ_SIZE) };
}

/** A new connection to the pinned address, with TLS to the URL's name for https. */
async function openConnection(hop: HopRequest): Promise<Deno.Conn> {
  const tcp = await connectPinned(hop);
  countConnection("new");
  if (hop.url.protocol !== "https:") return tcp;
  const { signal } = hop;
  const abort = () => closeQuietly(tcp);
  signal.addEventListener("abort", abort, { once: true });
  try {
    return await Deno.startTls(tcp, {
      hostname: serverName(hop.url),
      caCerts: hop.ca,
      alpnProtocols: ["http/1.1"],
    });
  } catch (error) {
    closeQuietly(tcp);
    throw signal.aborted ? signal.reason : error;
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

/** One request written on `connection` and its answer read; `reuse` says where it goes after. */
async function exchange(
  connection: KeptConnection,
  hop: HopRequest,
  reuse: Reuse | null,
): Promise<HopResponse> {
  const { conn } = connection;
  const { signal } = hop;
  let ended = false;
  // Idempotent: the deadline, a redirect, the body cap and the body's end may all end it. Only
  // a clean end (the whole answer read, nothing after it) hands the connection back.
  const end = (clean: boolean) => {
    if (ended) return;
    ended = true;
    signal.removeEventListener("abort", close);
    if (clean && reuse) reuse.pool.release(reuse.key, connection);
    else closeQuietly(conn);
  };
  const close = () => end(false);
  // An abort closes the socket: a pending read then fails, and the caller reads signal.reason.
  signal.addEventListener("abort", close, { once: true });
  try {
    await writeAll(conn, requestHead(hop, reuse !== null));
    return await readAnswer(connection, hop, end);
  } catch (error) {
    close();
    if (signal.aborted) throw signal.reason;
    // readAnswer returns with the head: what failed here came before any answer was read.
    if (reuse?.reused) throw new StaleConnection(error);
    throw error;
  }
}

/**
 * TCP to exactly the pinned address, within connectTimeoutMs. The address is an IP: nothing is
 * resolved here. Failing to connect is a ConnectError (the next checked address may be tried).
 */
function connectPinned(hop: HopRequest): Promise<Deno.TcpConn> {
  const { target, signal } = hop;
  if (ipLiteral(target.host) === null) {
    return Promise.reject(new Error(`unexpected host name ${target.host} in hop`));
  }
  return new Promise((resolve, reject) => {
    const stop = new AbortController();
    let settled = false;
    const settle = (error: unknown, conn?: Deno.TcpConn) => {
      if (settled) {
        conn?.close(); // connected after the timeout or the abort: not used
        return;
      }
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (conn) return resolve(conn);
      stop.abort();
      reject(error);
    };
    const onAbort = () => settle(signal.reason);
    const timer = setTimeout(() => settle(new ConnectError(null, true)), hop.connectTimeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    Deno.connect({ hostname: target.host, port: target.port, signal: stop.signal }).then(
      (conn) => {
        conn.setNoDelay(true);
        settle(null, conn);
      },
      (error) => settle(new ConnectError(error)),
    );
  });
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/**
 * Reads the answer's head, then hands back its body as an iterable that reads the socket only
 * as it is iterated: a body cap stops reading, it does not buffer the rest.
 */
async function readAnswer(
  { conn, buffer, pendingRead }: KeptConnection,
  hop: HopRequest,
  end: (clean: boolean) => void,
): Promise<HopResponse> {
  let head: AnswerHead | null = null;
  let complete = false;
  let reusable = false;
  let ended = false;
  const pending: Uint8Array[] = [];
  const parser = answerParser(hop.method, {
    head: (info) => void (head = info),
    // The parser's bytes are a view of the read buffer, which the next read overwrites.
    body: (bytes) => void pending.push(new Uint8Array(bytes)),
    complete: (clean) => {
      complete = true;
      reusable = clean;
    },
  });
  // A kept connection's first bytes come from the read that watched it while it was idle.
  let handedOver = pendingRead;
  /** One read fed to the parser; false at the end of the connection. */
  const readMore = async (): Promise<boolean> => {
    const reading = handedOver ?? conn.read(buffer);
    handedOver = undefined;
    const read = await reading;
    if (read === null) {
      parser.finish(); // a body read to the connection's close ends here
      return false;
    }
    parser.feed(Buffer.from(buffer.buffer, 0, read));
    // The whole answer is read off the socket: it is free, whatever the reader does next.
    if (complete) end(reusable);
    return true;
  };
  while (head === null) {
    if (!(await readMore())) throw new Error("socket hang up");
  }
  const { statusCode, headers, transferCodings } = head as AnswerHead;
  const close = () => end(false);
  async function* body(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        while (pending.length > 0) yield pending.shift()!;
        if (complete) return;
        if (ended) throw new Error("socket hang up");
        ended = !(await readMore());
      }
    } catch (error) {
      throw hop.signal.aborted ? hop.signal.reason : error;
    } finally {
      close();
    }
  }
  return {
    statusCode,
    headers: joinRawHeaders(headers),
    transferCodings,
    message: body(),
    destroy: close,
  };
}
