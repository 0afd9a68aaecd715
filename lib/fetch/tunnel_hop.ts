/**
 * One HTTP/1.1 exchange written over a proxy's tunnel. Deno's node:http ignores a socket handed
 * to it (`createConnection` with `agent: false`) and dials the target itself, so through a proxy
 * the request is written onto the tunnel here and the answer read with http-parser-js. TLS to
 * the target's real name (SNI, certificate) runs inside the tunnel; every socket made here has
 * its `error` listened for, so a bad certificate is an answer (EFETCH), never a crash.
 */
import { Buffer } from "node:buffer";
import type net from "node:net";
import { Readable } from "node:stream";
import tls from "node:tls";
import { HTTPParser } from "http-parser-js";
import { ipLiteral } from "../guard/resolve.ts";
import { joinRawHeaders } from "./headers.ts";
import type { HopRequest, HopResponse } from "./types.ts";

// Header bytes are read one char per byte, as node:http reads them (its default is 7-bit ASCII).
HTTPParser.encoding = "latin1";

/** The longest answer head read, as node:http's default. */
const MAX_HEAD = 16 * 1024;

/** Bodies that an answer to GET never has (RFC 9110: 204, 304; HEAD has none at all). */
const NO_BODY = new Set([204, 304]);

export async function sendThroughTunnel(
  hop: HopRequest & { tunnel: net.Socket },
): Promise<HopResponse> {
  const socket = hop.url.protocol === "https:" ? await startTls(hop) : hop.tunnel;
  return exchange(socket, hop);
}

/** TLS inside the tunnel, to the URL's name; rejects with the TLS error (or the deadline's). */
function startTls(hop: HopRequest & { tunnel: net.Socket }): Promise<tls.TLSSocket> {
  const hostname = hop.url.hostname.replace(/^\[|\]$/g, "");
  const { tunnel, signal } = hop;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const secure = tls.connect({
      socket: tunnel,
      servername: ipLiteral(hostname) ? undefined : hostname,
      rejectUnauthorized: true,
      ...(hop.ca ? { ca: hop.ca } : {}),
      ALPNProtocols: ["http/1.1"],
    });
    const cleanup = () => {
      signal.removeEventListener("abort", onAbort);
      secure.off("error", fail);
      tunnel.off("close", onClose);
    };
    const fail = (error: unknown) => {
      cleanup();
      secure.on("error", () => {}); // a second error from the same teardown must not escape
      secure.destroy();
      tunnel.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    const onClose = () => fail(new Error("socket hang up"));
    signal.addEventListener("abort", onAbort, { once: true });
    secure.on("error", fail);
    tunnel.once("close", onClose);
    secure.once("secureConnect", () => {
      cleanup();
      secure.on("error", () => {}); // from here, exchange() listens and acts
      resolve(secure);
    });
  });
}

/** An answer that is not HTTP: named as toApiError names node:http's parse errors. */
function parseError(error: Error): Error {
  const code = (error as { code?: string }).code;
  return Object.assign(new Error(`invalid HTTP response (${code ?? error.message})`), {
    code: code?.startsWith("HPE_") ? code : "HPE_INVALID",
  });
}

/** Writes the request, resolves once the final answer's head is read; the body streams on. */
function exchange(
  socket: net.Socket,
  hop: HopRequest & { tunnel: net.Socket },
): Promise<HopResponse> {
  const { url, signal } = hop;
  if (signal.aborted) {
    hop.tunnel.destroy();
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const parser = new HTTPParser(HTTPParser.RESPONSE);
    parser.maxHeaderSize = MAX_HEAD;
    let body: Readable | null = null;
    let complete = false;
    const close = () => {
      signal.removeEventListener("abort", onAbort);
      socket.off("data", onData);
      socket.destroy();
      hop.tunnel.destroy();
    };
    const fail = (error: unknown) => {
      if (complete) return;
      complete = true;
      close();
      if (body) body.destroy(error as Error);
      else reject(error);
    };
    const onAbort = () => fail(signal.reason);
    const onData = (chunk: Buffer) => {
      let parsed: number | Error;
      try {
        parsed = parser.execute(chunk);
      } catch (error) {
        parsed = error as Error;
      }
      if (parsed instanceof Error) fail(parseError(parsed));
    };
    const onEnd = () => {
      if (complete) return;
      const ended = parser.finish(); // a body read to the connection's close ends here
      if (!complete) fail(ended instanceof Error ? parseError(ended) : new Error("socket hang up"));
    };
    parser[HTTPParser.kOnHeadersComplete] = (info) => {
      // An interim answer (100 Continue, 103 Early Hints): the final one follows.
      if (info.statusCode >= 100 && info.statusCode < 200) return 1;
      const stream = body = new Readable({
        read: () => void socket.resume(),
        destroy: (error, callback) => {
          if (!complete) {
            complete = true;
            close();
          }
          callback(error);
        },
      });
      resolve({
        statusCode: info.statusCode,
        headers: joinRawHeaders(info.headers),
        message: stream,
        destroy: () => stream.destroy(),
      });
      return hop.method === "HEAD" || NO_BODY.has(info.statusCode) ? 1 : 0;
    };
    parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
      // Read no further than the reader takes: the body cap stops reading, not buffering.
      if (!body!.push(Buffer.from(chunk.subarray(offset, offset + length)))) socket.pause();
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      if (!body || complete) return; // the end of an interim answer
      complete = true;
      close();
      body.push(null);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onEnd);
    socket.on("error", fail);
    const head = [`${hop.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
    for (const [name, value] of Object.entries(hop.headers)) {
      if (name !== "host" && name !== "connection") head.push(`${name}: ${value}`);
    }
    head.push("connection: close", "", "");
    socket.write(Buffer.from(head.join("\r\n"), "latin1"));
    socket.resume();
  });
}
