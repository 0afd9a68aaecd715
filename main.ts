import { loadConfig } from "./lib/config/mod.ts";
import { createHandler } from "./lib/handler/mod.ts";
import { flushLog, log, setLogLevel } from "./lib/util/log.ts";
import { runStdio } from "./lib/cli/mcp.ts";
import { settlesWithin } from "./lib/util/deadline.ts";

/** How long past REQUEST_TIMEOUT_MS a shutdown waits for answers still being sent. */
const SHUTDOWN_GRACE_MS = 5_000;

/** The service: the API and /mcp on PORT (and PRO_PORT), until SIGTERM or SIGINT. */
async function startService(): Promise<void> {
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
      // A request ends within REQUEST_TIMEOUT_MS, but its client may stop reading the answer:
      // past that and a grace, state is written and the process ends all the same.
      const finished = Promise.all(servers.map((server) => server.shutdown()));
      if (!await settlesWithin(finished, config.requestTimeoutMs + SHUTDOWN_GRACE_MS)) {
        log.warn("connections still open at shutdown: closing them");
      }
      await handler.close();
      flushLog();
      Deno.exit(0);
    });
  }
}

/** A setting or DATA_DIR that stops the start: one line saying why, exit 1, no stack trace. */
async function startOrExplain(): Promise<void> {
  try {
    await startService();
  } catch (error) {
    log.error("cannot start", { error: error instanceof Error ? error.message : String(error) });
    flushLog();
    Deno.exit(1);
  }
}

// `linkpeek mcp`: the MCP tools over stdio, forwarding to a running service (lib/cli/mcp.ts).
if (Deno.args[0] === "mcp") await runStdio();
else await startOrExplain();
