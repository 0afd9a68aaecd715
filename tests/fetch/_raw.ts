/** Raw loopback TCP servers for targets that misbehave at the byte level. */
import net from "node:net";

/** A TCP server on 127.0.0.1 whose connections are handed to `onSocket`. */
export async function rawServer(onSocket: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers every request with the bytes `reply(path)` returns, then closes. */
export function replyWith(reply: (path: string) => Uint8Array | string | null) {
  return rawServer((socket) => {
    let head = "";
    socket.on("data", (chunk: Uint8Array) => {
      head += new TextDecoder().decode(chunk);
      if (!head.includes("\r\n\r\n")) return;
      const path = head.split(" ")[1] ?? "/";
      const bytes = reply(path);
      if (bytes === null) return socket.destroy();
      socket.end(bytes);
    });
  });
}

/**
 * Answers the first request with `head`, then `piece` again and again while the client reads
 * (64 MB at most): `sent.bytes` is what the target got out.
 */
export function flood(head: string, piece: string | Uint8Array) {
  const sent = { bytes: 0 };
  const server = rawServer((socket) => {
    socket.once("data", async () => {
      socket.write(head);
      const bytes = typeof piece === "string" ? new TextEncoder().encode(piece) : piece;
      while (sent.bytes < 64 * 1024 * 1024 && !socket.destroyed) {
        sent.bytes += bytes.length;
        if (!socket.write(bytes)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              socket.off("drain", go).off("close", go);
              resolve();
            };
            socket.on("drain", go).on("close", go);
          });
        }
      }
    });
  });
  return { server, sent };
}
