/**
 * One HTTP request to one checked address, on Deno's own sockets: the TCP connection goes to
 * the pinned IP, while the Host header and TLS (SNI and certificate check) use the URL's real
 * host name. node:http, which Deno emulates in layers of streams, took twice as long for the
 * same exchange. A hop through a proxy's tunnel is sendThroughTunnel's.
 */
import { Buffer } from "node:buffer";
import { ipLiteral } from "../guard/resolve.ts";
import { joinRawHeaders } from "./headers.ts";
import { type AnswerHead, answerParser, feed, finish, requestHead } from "./http1.ts";
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
  const { url, signal } = hop;
  // Already aborted: fail before any socket exists.
  signal.throwIfAborted();
  const tcp = await connectPinned(hop);
  let conn: Deno.Conn = tcp;
  let closed = false;
  // Idempotent: the deadline, a redirect, the body cap and the body's end may all close it.
  const close = () => {
    if (closed) return;
    closed = true;
    signal.removeEventListener("abort", close);
    try {
      conn.close();
    } catch {
      // already closed by Deno (a failed TLS handshake)
    }
  };
  // An abort closes the socket: a pending read then fails, and the caller reads signal.reason.
  signal.addEventListener("abort", close, { once: true });
  try {
    if (url.protocol === "https:") {
      const hostname = url.hostname.replace(/^\[|\]$/g, "");
      conn = await Deno.startTls(tcp, {
        // An IP literal is checked against the certificate's IP addresses, a name by SNI.
        hostname: ipLiteral(hostname) ?? hostname,
        caCerts: hop.ca,
        alpnProtocols: ["http/1.1"],
      });
    }
    await writeAll(conn, requestHead(hop));
    return await readAnswer(conn, hop, close);
  } catch (error) {
    close();
    throw signal.aborted ? signal.reason : error;
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
  conn: Deno.Conn,
  hop: HopRequest,
  close: () => void,
): Promise<HopResponse> {
  let head: AnswerHead | null = null;
  let complete = false;
  let ended = false;
  const pending: Uint8Array[] = [];
  const parser = answerParser(hop.method, {
    head: (info) => void (head = info),
    // The parser's bytes are a view of the read buffer, which the next read overwrites.
    body: (bytes) => void pending.push(new Uint8Array(bytes)),
    complete: () => void (complete = true),
  });
  const buffer = new Uint8Array(READ_SIZE);
  /** One read fed to the parser; false at the end of the connection. */
  const readMore = async (): Promise<boolean> => {
    const read = await conn.read(buffer);
    if (read === null) {
      finish(parser); // a body read to the connection's close ends here
      return false;
    }
    feed(parser, Buffer.from(buffer.buffer, 0, read));
    return true;
  };
  while (head === null) {
    if (!(await readMore())) throw new Error("socket hang up");
  }
  const { statusCode, headers } = head as AnswerHead;
  if (complete) close();
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
  return { statusCode, headers: joinRawHeaders(headers), message: body(), destroy: close };
}
