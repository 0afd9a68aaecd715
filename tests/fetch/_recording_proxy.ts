/**
 * A small CONNECT proxy of the tests' own on 127.0.0.1 that records what crosses its tunnels, so
 * a test can prove a request went through it and not around it. It can also misbehave as the
 * proxies of issue #22 did: answer its 200 and a target's first bytes in one write, or accept
 * and never answer.
 */
import net from "node:net";
import { Buffer } from "node:buffer";

export type Behaviour =
  /** Relays each CONNECT to its target, counting bytes both ways. */
  | "relay"
  /** Answers `200` and an SSH banner in one write, then holds the connection open. */
  | "banner"
  /** Accepts, reads, never answers. */
  | "silent";

export const BANNER = "SSH-2.0-OpenSSH_9.6\r\n";

export interface RecordingProxy extends AsyncDisposable {
  port: number;
  /** `http://127.0.0.1:port` */
  url: string;
  /** The CONNECT targets asked for, in order. */
  connects: string[];
  /** Bytes carried to targets through tunnels (requests, TLS handshakes). */
  up(): number;
  /** Bytes carried back from targets through tunnels. */
  down(): number;
  /** The first line of each plain-HTTP request carried through a tunnel. */
  requestLines: string[];
  /** Resolves once `count` CONNECTs have arrived. */
  connected(count?: number): Promise<void>;
  /** Resolves once `count` plain-HTTP requests have crossed a tunnel. */
  carried(count?: number): Promise<void>;
}

export async function startRecordingProxy(behaviour: Behaviour = "relay"): Promise<RecordingProxy> {
  const sockets = new Set<net.Socket>();
  const connects: string[] = [];
  const requestLines: string[] = [];
  const waiters: { list: string[]; count: number; resolve: () => void }[] = [];
  let up = 0;
  let down = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const announce = () => {
    for (const waiter of waiters) if (waiter.list.length >= waiter.count) waiter.resolve();
  };
  const until = (list: string[], count: number) =>
    list.length >= count
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ list, count, resolve }));

  const tunnel = (client: net.Socket, target: string, rest: Buffer) => {
    const colon = target.lastIndexOf(":");
    const upstream = net.connect({
      host: target.slice(0, colon),
      port: Number(target.slice(colon + 1)),
    });
    track(upstream);
    let first = true;
    const carry = (chunk: Buffer) => {
      up += chunk.length;
      if (first && /^[A-Z]+ \S+ HTTP\/1\.1\r\n/.test(chunk.toString("latin1"))) {
        requestLines.push(chunk.toString("latin1").split("\r\n")[0]!);
        announce();
      }
      first = false;
      upstream.write(chunk);
    };
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (rest.length) carry(rest);
      client.on("data", carry);
      upstream.on("data", (chunk: Buffer) => {
        down += chunk.length;
        client.write(chunk);
      });
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.end());
  };

  const server = net.createServer((client) => {
    track(client);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      client.off("data", onData);
      const target = /^CONNECT (\S+) HTTP\/1\.1/.exec(head.toString("latin1"))?.[1];
      if (!target) return client.destroy();
      connects.push(target);
      announce();
      if (behaviour === "silent") return;
      if (behaviour === "banner") {
        client.write(`HTTP/1.1 200 Connection Established\r\n\r\n${BANNER}`);
        return;
      }
      tunnel(client, target, head.subarray(end + 4));
    };
    client.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    connects,
    requestLines,
    up: () => up,
    down: () => down,
    connected: (count = 1) => until(connects, count),
    carried: (count = 1) => until(requestLines, count),
    async [Symbol.asyncDispose]() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
