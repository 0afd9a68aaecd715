/**
 * One HTTP request to one checked address. node:http is used because Deno's fetch cannot be
 * told which address to dial: here the socket goes to the pinned IP, while the Host header and
 * TLS (SNI and certificate check) still use the URL's real host name. A hop through a proxy's
 * tunnel is sendThroughTunnel's.
 */
import http from "node:http";
import https from "node:https";
import { ipLiteral } from "../guard/resolve.ts";
import { joinRawHeaders } from "./headers.ts";
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

export function sendHop(hop: HopRequest): Promise<HopResponse> {
  // Through a proxy the request must cross the tunnel, which node:http would not use.
  if (hop.tunnel) return sendThroughTunnel({ ...hop, tunnel: hop.tunnel });
  const { url, target, signal } = hop;
  const secure = url.protocol === "https:";
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const isLiteral = ipLiteral(hostname) !== null;
  const options: https.RequestOptions = {
    host: target.host,
    port: target.port,
    path: `${url.pathname}${url.search}`,
    method: hop.method,
    headers: { ...hop.headers, host: url.host },
    agent: false,
    // Never resolve anything here: the host is already an address (belt and braces).
    lookup: () => {
      throw new Error("unexpected DNS lookup in hop");
    },
    ...(secure
      ? {
        servername: isLiteral ? undefined : hostname,
        rejectUnauthorized: true,
        ...(hop.ca ? { ca: hop.ca } : {}),
        ALPNProtocols: ["http/1.1"],
      }
      : {}),
  };
  const lib = secure ? https : http;
  // Already aborted: fail before any socket exists (destroying a request that has no error
  // listener yet would surface as an uncaught "socket hang up").
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<HopResponse>((resolve, reject) => {
    let connected = false;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    };
    const req = lib.request(options, (message) => {
      settled = true;
      cleanup();
      resolve({
        statusCode: message.statusCode ?? 0,
        headers: joinRawHeaders(message.rawHeaders),
        message,
        destroy: () => {
          message.destroy();
          req.destroy();
        },
      });
    });
    const connectTimer = setTimeout(() => {
      if (connected) return;
      fail(new ConnectError(null, true));
      req.destroy();
    }, hop.connectTimeoutMs);
    const onAbort = () => {
      fail(signal.reason);
      req.destroy();
    };
    const cleanup = () => {
      clearTimeout(connectTimer);
      signal.removeEventListener("abort", onAbort);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) => fail(connected ? error : new ConnectError(error)));
    req.on("socket", (socket) => {
      socket.once("connect", () => {
        connected = true;
        clearTimeout(connectTimer);
      });
    });
    req.end();
  });
}
