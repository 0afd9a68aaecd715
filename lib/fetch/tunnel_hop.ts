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
import { ipLiteral } from "../guard/resolve.ts";
import { joinRawHeaders } from "./headers.ts";
import { answerParser, requestHead } from "./http1.ts";
import type { HopRequest, HopResponse } from "./types.ts";

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

/** Writes the request, resolves once the final answer's head is read; the body streams on. */
function exchange(
  socket: net.Socket,
  hop: HopRequest & { tunnel: net.Socket },
): Promise<HopResponse> {
  const { signal } = hop;
  if (signal.aborted) {
    hop.tunnel.destroy();
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
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
    const parser = answerParser(hop.method, {
      head: (info) => {
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
        // Its reader hears a failure when it reads (iteration rethrows it). Unheard, a failure
        // before the first read (a malformed body in the head's own packet) crashed the process.
        stream.on("error", () => {});
        resolve({
          statusCode: info.statusCode,
          headers: joinRawHeaders(info.headers),
          transferCodings: info.transferCodings,
          message: stream,
          destroy: () => stream.destroy(),
        });
      },
      // Read no further than the reader takes: the body cap stops reading, not buffering.
      body: (bytes) => {
        if (!body!.push(Buffer.from(bytes))) socket.pause();
      },
      complete: () => {
        if (complete) return;
        complete = true;
        close();
        body!.push(null);
      },
    });
    const onData = (chunk: Buffer) => {
      try {
        parser.feed(chunk);
      } catch (error) {
        fail(error);
      }
    };
    const onEnd = () => {
      if (complete) return;
      try {
        parser.finish(); // a body read to the connection's close ends here
      } catch (error) {
        return fail(error);
      }
      if (!complete) fail(new Error("socket hang up"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    socket.on("data", onData);
    socket.on("end", onEnd);
    socket.on("close", onEnd);
    socket.on("error", fail);
    socket.write(requestHead(hop));
    socket.resume();
  });
}
