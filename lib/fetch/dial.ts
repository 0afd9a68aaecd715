/** Raw TCP to a checked address, for the browser's egress proxy (CONNECT and plain HTTP). */
import net from "node:net";
import { ApiError } from "../util/errors.ts";
import { type GuardConfig, pinHost } from "../guard/pin.ts";
import { Deadline } from "../util/deadline.ts";
import { toApiError } from "./failure.ts";
import { handshakeBudget, openTunnel, type ProxySpec } from "./proxy_client.ts";

/** WHATWG host normalisation, so `0x7f.1` or `127。0。0。1` are judged as what they mean. */
function normaliseHost(host: string): string {
  const bracketed = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = URL.parse(`http://${bracketed}/`);
  if (url) return url.hostname;
  throw new ApiError("EINVALURL", `The host \`${host}\` is not a valid host.`);
}

function connectOnce(
  target: { host: string; port: number },
  signal: AbortSignal,
): Promise<net.Socket> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.host, port: target.port });
    const onAbort = () => {
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const onError = (error: Error) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(error);
    };
    socket.once("connect", () => {
      signal.removeEventListener("abort", onAbort);
      socket.off("error", onError);
      // A later reset must not crash the process if the caller forgets its own listener.
      socket.on("error", () => {});
      resolve(socket);
    });
    socket.once("error", onError);
  });
}

export async function dialChecked(
  input: { host: string; port: number },
  options: {
    config: GuardConfig;
    timeoutMs: number;
    signal?: AbortSignal;
    /** Through this proxy: a tunnel to the checked address. */
    proxy?: ProxySpec | null;
  },
): Promise<net.Socket> {
  const subject = `The host "${input.host}:${input.port}"`;
  if (!Number.isInteger(input.port) || input.port < 1 || input.port > 65535) {
    throw new ApiError("EINVALURL", `${subject} has an invalid port.`);
  }
  using limit = new Deadline({
    timeoutMs: options.timeoutMs,
    error: () => new ApiError("ETIMEOUT", `${subject} timed out after ${options.timeoutMs} ms.`),
    signal: options.signal,
  });
  try {
    const host = normaliseHost(input.host);
    const targets = await pinHost({ host, port: input.port }, {
      config: options.config,
      subject,
      signal: limit.signal,
      stage: "browser", // only the browser's egress proxy dials raw sockets
    });
    let last: unknown = null;
    for (const target of targets) {
      if (options.proxy) {
        return await openTunnel(options.proxy, target, {
          config: options.config,
          signal: limit.signal,
          timeoutMs: handshakeBudget(limit.remaining()),
        });
      }
      try {
        return await connectOnce(target, limit.signal);
      } catch (error) {
        if (limit.reason) throw limit.reason;
        last = error;
      }
    }
    throw last;
  } catch (error) {
    throw toApiError(limit.reason ?? error, subject);
  }
}
