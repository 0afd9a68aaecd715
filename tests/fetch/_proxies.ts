/**
 * Real forward proxies from Debian (tinyproxy, squid), started by a test on 127.0.0.1 with a
 * config of its own and stopped by it. Their logs show what they were asked to CONNECT to. Both
 * are told to resolve nothing: linkpeek always hands them an address.
 */

export interface RunningProxy extends AsyncDisposable {
  port: number;
  /** `http://[user:pass@]127.0.0.1:port` */
  url: string;
  /** The proxy's own log so far (tinyproxy's connect lines, squid's access log). */
  log(): Promise<string>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function which(names: string[]): string {
  for (const name of names) {
    try {
      if (Deno.statSync(name).isFile) return name;
    } catch {
      // next
    }
  }
  throw new Error(`None of ${names.join(", ")} is installed (apt-get install tinyproxy squid)`);
}

/** Waits until something accepts connections on the port (the proxy finished starting). */
async function listening(port: number, child: Deno.ChildProcess, name: string): Promise<void> {
  let exited = false;
  child.status.then(() => (exited = true));
  for (let i = 0; i < 200; i++) {
    if (exited) throw new Error(`${name} exited while starting`);
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`${name} did not start listening on ${port}`);
}

async function start(
  name: string,
  command: string,
  args: (dir: string, port: number) => { args: string[]; config: string; log: string },
  credentials?: { user: string; password: string },
): Promise<RunningProxy> {
  const dir = await Deno.makeTempDir({ prefix: `linkpeek-${name}-` });
  await Deno.chmod(dir, 0o777); // squid drops to its own user
  const port = freePort();
  const spec = args(dir, port);
  await Deno.writeTextFile(`${dir}/proxy.conf`, spec.config);
  const child = new Deno.Command(command, {
    args: spec.args,
    stdout: "null",
    stderr: "null",
    stdin: "null",
  }).spawn();
  try {
    await listening(port, child, name);
  } catch (error) {
    child.kill("SIGKILL");
    await child.status;
    throw error;
  }
  const auth = credentials ? `${credentials.user}:${credentials.password}@` : "";
  return {
    port,
    url: `http://${auth}127.0.0.1:${port}`,
    log: () => Deno.readTextFile(spec.log).catch(() => ""),
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * tinyproxy on loopback; with `credentials`, Basic auth is required (407 otherwise); with
 * `upstream` (`host:port`), it forwards every CONNECT to that proxy (a recording one).
 */
export function startTinyproxy(
  credentials?: { user: string; password: string },
  upstream?: string,
): Promise<RunningProxy> {
  return start("tinyproxy", which(["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"]), (dir, port) => ({
    args: ["-d", "-c", `${dir}/proxy.conf`],
    log: `${dir}/proxy.log`,
    config: [
      `Port ${port}`,
      "Listen 127.0.0.1",
      "Timeout 30",
      `LogFile "${dir}/proxy.log"`,
      "LogLevel Connect",
      "MaxClients 32",
      "Allow 127.0.0.1",
      ...(credentials ? [`BasicAuth ${credentials.user} ${credentials.password}`] : []),
      ...(upstream ? [`Upstream http ${upstream}`] : []),
      "",
    ].join("\n"),
  }), credentials);
}

/** squid on loopback, CONNECT allowed to any port, no cache, no DNS server to ask. */
export function startSquid(): Promise<RunningProxy> {
  return start("squid", which(["/usr/sbin/squid", "/usr/bin/squid"]), (dir, port) => ({
    args: ["-N", "-f", `${dir}/proxy.conf`],
    log: `${dir}/access.log`,
    config: [
      `http_port 127.0.0.1:${port}`,
      "acl local src 127.0.0.1/32",
      "http_access allow local",
      "http_access deny all",
      "cache deny all",
      "dns_nameservers 127.0.0.1",
      `pid_filename ${dir}/squid.pid`,
      `cache_log ${dir}/cache.log`,
      `access_log stdio:${dir}/access.log`,
      `coredump_dir ${dir}`,
      "shutdown_lifetime 0 seconds",
      "",
    ].join("\n"),
  }));
}
