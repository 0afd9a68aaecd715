/**
 * Egress through an HTTP(S) proxy (`proxy=` on pro, or EGRESS_PROXY for everything) without
 * giving up the guard: the proxy's own address is resolved and checked like a target's, every
 * target name is still resolved and checked here, and the proxy is asked to CONNECT to the
 * checked address, never to a name it would resolve itself. TLS to the target then runs inside
 * the tunnel with the real name (SNI, certificate, Host), so a proxy cannot be used to reach a
 * private address either. Credentials go only to the proxy, in Proxy-Authorization; errors
 * name the proxy's host alone.
 */
import net from "node:net";
import tls from "node:tls";
import { Buffer } from "node:buffer";
import { ApiError, isApiError } from "../util/errors.ts";
import { basicAuth, portOf } from "../util/http.ts";
import { type GuardConfig, pinHost, type PinnedAddress } from "../guard/pin.ts";
import { ipLiteral } from "../guard/resolve.ts";
import type { Fetcher, ProxySpec } from "./types.ts";

export type { ProxySpec } from "./types.ts";

/** The longest CONNECT answer head read. */
const MAX_HEAD = 16 * 1024;

/** The longest wait for a proxy to connect and answer CONNECT, whatever time the request has. */
const HANDSHAKE_MS = 3_000;

/**
 * How long opening a tunnel may take with `remainingMs` left to the caller's deadline: a few
 * seconds, and never more than half of what is left, so a proxy that accepts and never answers
 * is named (EPROXYFAILED) before the deadline turns it into a timeout of the target's.
 */
export function handshakeBudget(remainingMs: number): number {
  return Math.max(1, Math.min(HANDSHAKE_MS, Math.floor(remainingMs / 2)));
}

/**
 * Reads `http(s)://[user:pass@]host[:port]`; throws `invalid(reason)` on anything else (an
 * ApiError naming the parameter, or a start-up Error naming the setting). Never echoes the value:
 * it may hold a password.
 */
export function parseProxy(text: string, invalid: (reason: string) => Error): ProxySpec {
  const url = URL.parse(text);
  if (!url) throw invalid("is not a URL");
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid("must be an http or https URL");
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) {
    throw invalid("must name only a host and port");
  }
  const authorization = basicAuth(url);
  url.username = "";
  url.password = "";
  return { url, authorization };
}

/** The proxy's host, as errors name it. */
export function proxyHost(proxy: ProxySpec): string {
  return proxy.url.hostname;
}

export function proxyError(proxy: ProxySpec, what: string, cause?: unknown): ApiError {
  return new ApiError("EPROXYFAILED", `The proxy "${proxyHost(proxy)}" ${what}.`, { cause });
}

export interface TunnelOptions {
  config: GuardConfig;
  /** The caller's deadline: its reason wins when it ends first. */
  signal: AbortSignal;
  /** How long connecting to the proxy and its CONNECT answer may take (handshakeBudget). */
  timeoutMs: number;
  /** Extra CAs for an https proxy (the same ones targets may use). */
  ca?: string[];
}

/**
 * A socket through `proxy` to the checked address `target` (CONNECT to its IP and port). The
 * proxy's address passes the guard first: a private proxy is EFORBIDDENURL unless trusted.
 */
export async function openTunnel(
  proxy: ProxySpec,
  target: PinnedAddress,
  options: TunnelOptions,
): Promise<net.Socket> {
  const host = proxyHost(proxy);
  const port = portOf(proxy.url);
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  const proxies = await pinHost({ host, port }, {
    config: options.config,
    subject: `The proxy "${host}"`,
    signal,
  });
  let last: unknown = null;
  for (const address of proxies) {
    let socket: net.Socket;
    try {
      socket = await connect(proxy, address, { ...options, signal });
    } catch (error) {
      if (signal.aborted) throw proxyError(proxy, "did not answer in time", error);
      last = error;
      continue;
    }
    try {
      await handshake(socket, proxy, target, signal);
      return socket;
    } catch (error) {
      socket.destroy();
      if (isApiError(error)) throw error;
      throw proxyError(proxy, "failed", error);
    }
  }
  throw proxyError(proxy, "refused the connection", last);
}

/** TCP (and TLS, for an https proxy) to one checked address of the proxy. */
function connect(
  proxy: ProxySpec,
  address: PinnedAddress,
  options: TunnelOptions,
): Promise<net.Socket> {
  options.signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const secure = proxy.url.protocol === "https:";
    const name = proxyHost(proxy);
    const socket: net.Socket = secure
      ? tls.connect({
        host: address.host,
        port: address.port,
        servername: ipLiteral(name) ? undefined : name,
        ...(options.ca ? { ca: options.ca } : {}),
      })
      : net.connect({ host: address.host, port: address.port });
    const onAbort = () => fail(options.signal.reason);
    const fail = (error: unknown) => {
      options.signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(error);
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    socket.once("error", fail);
    socket.once(secure ? "secureConnect" : "connect", () => {
      options.signal.removeEventListener("abort", onAbort);
      socket.off("error", fail);
      socket.on("error", () => {}); // a later reset is the request's to notice
      resolve(socket);
    });
  });
}

/** CONNECT ip:port; resolves once the proxy answered 2xx, rejects with EPROXYFAILED otherwise. */
function handshake(
  socket: net.Socket,
  proxy: ProxySpec,
  target: PinnedAddress,
  signal: AbortSignal,
): Promise<void> {
  const authority = target.address.includes(":")
    ? `[${target.address}]:${target.port}`
    : `${target.address}:${target.port}`;
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
  if (proxy.authorization) lines.push(`Proxy-Authorization: ${proxy.authorization}`);
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const done = (error?: ApiError, leftover?: Buffer) => {
      socket.off("data", onData);
      socket.pause(); // the request that takes the tunnel over reads on from here
      socket.off("close", onClose);
      signal.removeEventListener("abort", onAbort);
      // Pushed back only now that this listener is gone: pushed back before, the bytes came
      // straight back to it, the same head was found again and a longer tail pushed back,
      // forever (a target that speaks first, or a proxy sending its 200 and data at once).
      if (leftover?.length) socket.unshift(leftover);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => done(proxyError(proxy, "did not answer in time"));
    const onClose = () => done(proxyError(proxy, "closed the connection"));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD) done(proxyError(proxy, "answered with an oversized head"));
        return;
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString())?.[1]);
      // tinyproxy answers wrong credentials with 401.
      if (status === 407 || status === 401) {
        return done(proxyError(proxy, `asked for credentials (${status})`));
      }
      if (!(status >= 200 && status < 300)) {
        return done(proxyError(proxy, `refused the tunnel (${status || "no HTTP answer"})`));
      }
      // Whatever came after the head is the target's first bytes.
      done(undefined, head.subarray(end + 4));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    socket.on("data", onData);
    socket.once("close", onClose);
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  });
}

/** `fetcher` with every fetch and dial sent through `proxy` (the request's `proxy=`). */
export function viaProxy(fetcher: Fetcher, proxy: ProxySpec | null): Fetcher {
  if (!proxy) return fetcher;
  return {
    ownPorts: fetcher.ownPorts,
    fetch: (url, options) => fetcher.fetch(url, { ...options, proxy }),
    dial: (host, port, options) => fetcher.dial(host, port, { ...options, proxy }),
  };
}
