/** Resolves a host name to every address it has (A and AAAA). Injected in tests. */
export type Resolver = (hostname: string) => Promise<string[]>;

/**
 * Maps an address that passed the guard onto the socket address actually dialled.
 * Production: identity. Tests: map public/private test addresses onto loopback servers,
 * so that no test ever connects beyond loopback.
 */
export type Connector = (address: string, port: number) => { host: string; port: number };

/**
 * How the guard reaches the network, injected where the fetcher is built (never configuration):
 * absent, the system's resolver and a dial to the checked address itself. Tests and benchmarks
 * map public names and addresses onto loopback fixtures with them.
 */
export interface NetworkHooks {
  resolver?: Resolver;
  connector?: Connector;
}

/** One TRUSTED_TARGETS entry: an address range and a port (null means any port). */
export interface TrustedTarget {
  /** Network address in canonical text form (IPv4 dotted or IPv6 compressed). */
  network: string;
  prefix: number;
  port: number | null;
}
