/**
 * The browser's only way out: an HTTP proxy on 127.0.0.1 that opens every upstream connection
 * through fetcher.dial (resolve, guard every address, pin, connect). Chromium is launched with
 * --proxy-server pointing here, so navigations, sub-resources, fetch/XHR, WebSocket, workers,
 * iframes and popups are all checked by the same guard as the fetcher.
 */
import { createServer, type Server, type Socket } from "node:net";
import { Buffer } from "node:buffer";
import type { Fetcher } from "../fetch/types.ts";
import { ApiError, isApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { isHopByHop, portOf } from "../util/http.ts";

/** Header on the proxy's own refusals, so the main frame's 403 can be told from a target's. */
export const DENIED_HEADER = "x-linkpeek-denied";

const MAX_HEAD_BYTES = 64 * 1024;

export interface Denial {
  code: ApiError["code"];
  message: string;
  at: number;
}

export interface EgressProxy extends AsyncDisposable {
  port: number;
  /** The last refusal per "host:port" (lower-cased host, no brackets), for the main frame. */
  denial(host: string, port: number): Denial | undefined;
  /** Connections currently open through the proxy. */
  open(): number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  fetcher: Fetcher;
  /** Deadline of one upstream dial; default 10 s. */
  dialTimeoutMs?: number;
}

/** Starts the proxy on 127.0.0.1 at a random port. */
export async function startProxy(options: ProxyOptions): Promise<EgressProxy> {
  const sockets = new Set<Socket>();
  const denials = new Map<string, Denial>();
  const dialTimeoutMs = options.dialTimeoutMs ?? 10_000;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };

  const deny = (client: Socket, key: string, error: unknown) => {
    const apiError = isApiError(error)
      ? error
      : new ApiError("EFETCH", `The browser could not reach "${key}".`);
    denials.set(key, { code: apiError.code, message: apiError.message, at: Date.now() });
    if (denials.size > 1000) denials.delete(denials.keys().next().value!);
    const forbidden = apiError.code === "EFORBIDDENURL";
    const body = apiError.message;
    client.end(
      `HTTP/1.1 ${forbidden ? "403 Forbidden" : "502 Bad Gateway"}\r\n` +
        `${DENIED_HEADER}: ${apiError.code}\r\ncontent-type: text/plain; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  };

  const dial = (host: string, port: number) =>
    options.fetcher.dial(host, port, { signal: AbortSignal.timeout(dialTimeoutMs) });

  const onConnect = async (client: Socket, target: string, rest: Buffer) => {
    const parsed = splitHostPort(target);
    if (!parsed) return badRequest(client);
    const key = `${parsed.host}:${parsed.port}`;
    let upstream: Socket;
    try {
      upstream = await dial(parsed.host, parsed.port);
    } catch (error) {
      return deny(client, key, error);
    }
    track(upstream);
    if (client.destroyed) return upstream.destroy();
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (rest.length) upstream.write(rest);
    pipeBoth(client, upstream);
  };

  const onAbsolute = async (client: Socket, head: ParsedHead, rest: Buffer) => {
    const url = URL.parse(head.target);
    if (url?.protocol !== "http:") return badRequest(client);
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const port = portOf(url);
    const key = `${host}:${port}`;
    let upstream: Socket;
    try {
      upstream = await dial(host, port);
    } catch (error) {
      return deny(client, key, error);
    }
    track(upstream);
    if (client.destroyed) return upstream.destroy();
    // One request per upstream connection: the browser is told to close after the answer,
    // so a kept-alive proxy connection can never carry a second request to another host.
    const lines = [`${head.method} ${url.pathname}${url.search} HTTP/1.1`];
    for (const [name, value] of head.headers) {
      if (!isHopByHop(name.toLowerCase())) lines.push(`${name}: ${value}`);
    }
    lines.push("Connection: close", "", "");
    upstream.write(lines.join("\r\n"));
    if (rest.length) upstream.write(rest);
    client.pipe(upstream);
    rewriteResponseHead(upstream, client);
    linkClose(client, upstream);
  };

  const server: Server = createServer((client) => {
    track(client);
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) {
        if (buffered.length > MAX_HEAD_BYTES) badRequest(client);
        return;
      }
      client.off("data", onData);
      client.pause();
      const head = parseHead(buffered.subarray(0, end).toString("latin1"));
      const rest = buffered.subarray(end + 4);
      if (!head) return badRequest(client);
      const work = head.method === "CONNECT"
        ? onConnect(client, head.target, rest)
        : head.target.startsWith("http://")
        ? onAbsolute(client, head, rest)
        : Promise.resolve(badRequest(client));
      work.then(() => client.resume()).catch((error) => {
        log.error("browser proxy failure", { error: String(error) });
        client.destroy();
      });
    };
    client.on("data", onData);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    port,
    denial: (host, p) => denials.get(`${host.replace(/^\[|\]$/g, "").toLowerCase()}:${p}`),
    open: () => sockets.size,
    close,
    [Symbol.asyncDispose]: close,
  };
}

interface ParsedHead {
  method: string;
  target: string;
  headers: [string, string][];
}

function parseHead(text: string): ParsedHead | null {
  const [requestLine, ...headerLines] = text.split("\r\n");
  const match = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine ?? "");
  if (!match) return null;
  const headers: [string, string][] = [];
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { method: match[1]!, target: match[2]!, headers };
}

function splitHostPort(target: string): { host: string; port: number } | null {
  const match = /^\[([0-9a-fA-F:.]+)\]:(\d{1,5})$/.exec(target) ??
    /^([^:\s/]+):(\d{1,5})$/.exec(target);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1]!.toLowerCase(), port };
}

function badRequest(client: Socket): void {
  client.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
}

function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  linkClose(a, b);
}

/**
 * When one side closes, end the other (flushing what it holds); its peer then closes it. The
 * other side's reading resumes too: its pipe into the closed side is gone, and a socket whose
 * reading stays paused never sees its peer's FIN, so it would never close (a descriptor leaked
 * per proxied request).
 */
function linkClose(a: Socket, b: Socket): void {
  a.on("close", () => b.end().resume());
  b.on("close", () => a.end().resume());
}

/** Copies the upstream answer to the client with `Connection: close` in its head. */
function rewriteResponseHead(upstream: Socket, client: Socket): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) {
      if (buffered.length > MAX_HEAD_BYTES) upstream.destroy();
      return;
    }
    upstream.off("data", onData);
    const lines = buffered.subarray(0, end).toString("latin1").split("\r\n");
    const kept = lines.filter((line, i) =>
      i === 0 || !isHopByHop(line.slice(0, line.indexOf(":")).trim().toLowerCase())
    );
    kept.push("Connection: close", "Proxy-Connection: close", "", "");
    client.write(Buffer.from(kept.join("\r\n"), "latin1"));
    const body = buffered.subarray(end + 4);
    if (body.length) client.write(body);
    upstream.pipe(client);
  };
  upstream.on("data", onData);
  upstream.resume(); // a tunnel through an upstream proxy arrives paused
}
