/**
 * One HTTP request to one checked address. node:http is used because Deno's fetch cannot be
 * told which address to dial: here the socket goes to the pinned IP, while the Host header and
 * TLS (SNI and certificate check) still use the URL's real host name.
 */
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import tls from "node:tls";
import type { PinnedAddress } from "../guard/pin.ts";
import { ipLiteral } from "../guard/resolve.ts";

export interface HopRequest {
  url: URL;
  method: "GET" | "HEAD";
  headers: Record<string, string>;
  target: PinnedAddress;
  /** Aborted on the deadline; its reason is what the hop rejects with. */
  signal: AbortSignal;
  connectTimeoutMs: number;
  /** Extra trusted CA certificates (PEM), for intranets and tests. */
  ca?: string[];
  /** A tunnel to `target` through a proxy (openTunnel), already open. */
  tunnel?: net.Socket;
}

export interface HopResponse {
  statusCode: number;
  headers: Record<string, string>;
  message: http.IncomingMessage;
  /** Closes the connection at once (body no longer wanted). */
  destroy(): void;
}

/** Thrown when the TCP connection could not be set up (another address may be tried). */
export class ConnectError extends Error {
  constructor(override readonly cause: unknown, readonly timedOut = false) {
    super(timedOut ? "connect timeout" : String((cause as Error)?.message ?? cause));
    this.name = "ConnectError";
  }
}

function flatHeaders(message: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    // Own keys only: a target may name a header `constructor`.
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}

export function sendHop(hop: HopRequest): Promise<HopResponse> {
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
  if (hop.tunnel) {
    // TLS runs inside the tunnel, to the real name. (Deno's https also wants the TLS options
    // on the request itself, kept above.)
    const tunnel = hop.tunnel;
    const socket = secure
      ? tls.connect({
        socket: tunnel,
        servername: isLiteral ? undefined : hostname,
        ...(hop.ca ? { ca: hop.ca } : {}),
        ALPNProtocols: ["http/1.1"],
      })
      : tunnel;
    options.createConnection = () => socket;
  }
  const lib = secure ? https : http;
  // Already aborted: fail before any socket exists (destroying a request that has no error
  // listener yet would surface as an uncaught "socket hang up").
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<HopResponse>((resolve, reject) => {
    let connected = hop.tunnel !== undefined;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      cleanup();
      hop.tunnel?.destroy();
      reject(error);
    };
    const req = lib.request(options, (message) => {
      settled = true;
      cleanup();
      resolve({
        statusCode: message.statusCode ?? 0,
        headers: flatHeaders(message),
        message,
        destroy: () => {
          message.destroy();
          req.destroy();
          hop.tunnel?.destroy(); // TLS inside a tunnel does not always close the tunnel
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
