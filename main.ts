import { loadConfig } from "./lib/config/mod.ts";
import { createHandler } from "./lib/handler/mod.ts";
import { flushLog, log, setLogLevel } from "./lib/util/log.ts";

const config = loadConfig();
setLogLevel(config.logLevel);
const handler = await createHandler(config);

function remote(info: Deno.ServeHandlerInfo): string {
  const addr = info.remoteAddr as Deno.NetAddr;
  return addr.hostname ?? "0.0.0.0";
}

const servers = [
  Deno.serve(
    { port: config.port, hostname: config.listenHost, onListen: () => {} },
    (request, info) => handler(request, { remoteAddr: remote(info) }),
  ),
];
if (config.proPort) {
  servers.push(Deno.serve(
    { port: config.proPort, hostname: config.listenHost, onListen: () => {} },
    (request, info) => handler(request, { remoteAddr: remote(info), pro: true }),
  ));
}
log.info("listening", { port: config.port, proPort: config.proPort, host: config.listenHost });

// Graceful shutdown: stop accepting, let in-flight requests finish, close the browser.
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.addSignalListener(signal, async () => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    await Promise.all(servers.map((server) => server.shutdown()));
    await handler.close();
    flushLog();
    Deno.exit(0);
  });
}
