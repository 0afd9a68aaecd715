/**
 * linkpeek itself on real loopback sockets (free port, and a pro port when asked), the way
 * main.ts serves it, for clients that speak HTTP: Chromium, @microlink/mql, the CLI.
 */
import type { Config } from "../../lib/config/mod.ts";
import { createHandler, type Handler } from "../../lib/handler/mod.ts";
import type { ServiceHooks } from "../../lib/services/mod.ts";

export interface Linkpeek extends AsyncDisposable {
  origin: string;
  /** Set when started with `pro: true`: every request there is a pro request. */
  proOrigin: string;
  handler: Handler;
}

function remote(info: Deno.ServeHandlerInfo): string {
  return (info.remoteAddr as Deno.NetAddr).hostname;
}

export async function serveLinkpeek(
  config: Config,
  options: { pro?: boolean; hooks?: ServiceHooks } = {},
): Promise<Linkpeek> {
  let handler: Handler | null = null;
  const listen = (pro: boolean) =>
    Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      (request, info) => handler!(request, { remoteAddr: remote(info), pro }),
    );
  const free = listen(false);
  const pro = options.pro ? listen(true) : null;
  // Ports are known only now: asset URLs and the guard's own-port list must name them.
  config.port = free.addr.port;
  config.proPort = pro ? pro.addr.port : null;
  config.publicUrl = `http://127.0.0.1:${free.addr.port}`;
  config.ownPorts = [free.addr.port, ...(pro ? [pro.addr.port] : [])];
  handler = await createHandler(config, options.hooks);
  return {
    origin: config.publicUrl,
    proOrigin: pro ? `http://127.0.0.1:${pro.addr.port}` : "",
    handler,
    async [Symbol.asyncDispose]() {
      await Promise.all([free.shutdown(), pro?.shutdown()]);
      await handler!.close();
      await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
    },
  };
}
