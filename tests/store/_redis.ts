/**
 * A real redis-server for tests: random free loopback port, no persistence, own temp dir.
 * `stop()` kills it (to test outages) and `start()` brings it back on the same port.
 */

const BINARY = "/usr/bin/redis-server";

export interface TestRedis extends AsyncDisposable {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that accepts connections but never answers. */
  pause(): void;
  resume(): void;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function pong(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    try {
      await conn.write(new TextEncoder().encode("PING\r\n"));
      const buf = new Uint8Array(64);
      const n = await conn.read(buf);
      return n !== null && new TextDecoder().decode(buf.subarray(0, n)).startsWith("+PONG");
    } finally {
      conn.close();
    }
  } catch {
    return false;
  }
}

export async function startRedis(): Promise<TestRedis> {
  try {
    await Deno.stat(BINARY);
  } catch {
    throw new Error(`${BINARY} is missing: run \`apt-get install redis-server\``);
  }
  const dir = await Deno.makeTempDir({ prefix: "linkpeek-redis-" });
  const port = freePort();
  let child: Deno.ChildProcess | null = null;

  const start = async () => {
    const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"];
    child = new Deno.Command(BINARY, {
      args: [...args, "no", "--dir", dir],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; i < 100; i++) {
      if (await pong(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on 127.0.0.1:${port}`);
  };
  const stop = async () => {
    const running: Deno.ChildProcess | null = child;
    child = null;
    if (!running) return;
    running.kill("SIGKILL");
    await running.status;
  };

  const signal = (name: Deno.Signal) => {
    const running: Deno.ChildProcess | null = child;
    if (!running) throw new Error("redis-server is not running");
    running.kill(name);
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    pause: () => signal("SIGSTOP"),
    resume: () => signal("SIGCONT"),
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
