/**
 * Loopback fixtures for fetcher tests. Nothing here can reach beyond loopback: the resolver
 * answers from a table, and the connector only ever returns 127.0.0.1.
 */
import { type Config, loadConfig } from "../../lib/config.ts";
import type { Connector, Resolver } from "../../lib/guard/types.ts";
import { DnsError } from "../../lib/guard/resolve.ts";
import { setQuiet } from "../../lib/log.ts";

setQuiet(true);

/** A public address with no documentation meaning; always mapped onto loopback in tests. */
export const PUBLIC_IP = "93.184.216.34";
export const PUBLIC_IP_2 = "93.184.216.35";
export const PUBLIC_IP6 = "2606:2800:220:1:248:1893:25c8:1946";

export interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
}

export interface Fixture extends AsyncDisposable {
  port: number;
  /** Requests the server has seen. */
  hits: number;
  /** Last request seen (a snapshot: Request objects die with their connection). */
  last: Seen | null;
  /** Every request seen, in order. */
  seen: Seen[];
  origin: string;
}

/** A loopback HTTP server counting its hits. */
export function serve(handler: (req: Request, fixture: Fixture) => Response | Promise<Response>) {
  const fixture = { hits: 0, last: null, seen: [] as Seen[] } as unknown as Fixture;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (req) => {
      fixture.hits++;
      const url = new URL(req.url);
      fixture.last = {
        method: req.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(req.headers),
      };
      fixture.seen.push(fixture.last);
      return handler(req, fixture);
    },
  );
  fixture.port = server.addr.port;
  fixture.origin = `http://127.0.0.1:${server.addr.port}`;
  fixture[Symbol.asyncDispose] = async () => {
    await server.shutdown();
  };
  return fixture;
}

/** Names to addresses; anything else fails like NXDOMAIN. Counts lookups per name. */
export function tableResolver(
  table: Record<string, string[]>,
): Resolver & { calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const resolver = (host: string) => {
    calls[host] = (calls[host] ?? 0) + 1;
    const found = table[host];
    return found ? Promise.resolve(found) : Promise.reject(new DnsError(host, "ENOTFOUND"));
  };
  return Object.assign(resolver, { calls });
}

/**
 * address (any port) or "address:port" onto a loopback port. Unmapped addresses throw, so a
 * test can never dial anything real. Records every (address, port) it was asked for.
 */
export function loopbackConnector(
  table: Record<string, number>,
): Connector & { dialled: string[] } {
  const dialled: string[] = [];
  const connector = (address: string, port: number) => {
    dialled.push(`${address}:${port}`);
    const to = table[`${address}:${port}`] ?? table[address];
    if (to === undefined) throw new Error(`test connector: ${address}:${port} is not mapped`);
    return { host: "127.0.0.1", port: to };
  };
  return Object.assign(connector, { dialled });
}

/** Default config with test overrides; ownPorts empty unless given. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ownPorts: [], ...overrides };
}
