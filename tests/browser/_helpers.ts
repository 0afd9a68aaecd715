/**
 * Real parts for browser tests: Chromium, a loopback canary that counts every TCP connection, a
 * pool over the real guarded fetcher and a decoder for captures. Servers and configs come from
 * tests/_fixtures.ts. Nothing listens beyond 127.0.0.1.
 */
import { PNG } from "pngjs";
import jpeg from "jpeg-js";
import { Buffer } from "node:buffer";
import type { Config } from "../../lib/config/mod.ts";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { BrowserPool } from "../../lib/browser/mod.ts";
import puppeteer, { type Browser } from "puppeteer-core";

/** Where the tests expect Chromium: CHROMIUM_PATH, else the binary Debian's package installs. */
export const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/lib/chromium/chromium";

/** Fails the test with a reason when Chromium is missing (never skips). */
export function requireChromium(): void {
  try {
    Deno.statSync(CHROMIUM);
  } catch {
    throw new Error(`Chromium is required for browser tests and was not found at ${CHROMIUM}`);
  }
}

/**
 * Chromium for a test that plays the part of a client (a card host, a viewer): headless, no
 * proxy, and every host name unresolvable, so that whatever it loads stays on 127.0.0.1.
 */
export function launchLoopbackChromium(extraArgs: string[] = []): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--proxy-server=direct://",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      ...extraArgs,
    ],
  });
}

export interface Canary extends AsyncDisposable {
  port: number;
  origin: string;
  /** TCP connections accepted: any contact at all, not only complete HTTP requests. */
  connections: number;
}

/** A loopback server outside TRUSTED_TARGETS; it must never be contacted. */
export function startCanary(): Canary {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const canary = { port, origin: `http://127.0.0.1:${port}`, connections: 0 } as Canary;
  const loop = (async () => {
    for await (const conn of listener) {
      canary.connections++;
      await conn.write(new TextEncoder().encode(
        "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 6\r\n" +
          "connection: close\r\n\r\ncanary",
      )).catch(() => {});
      conn.close();
    }
  })();
  canary[Symbol.asyncDispose] = async () => {
    listener.close();
    await loop.catch(() => {});
  };
  return canary;
}

/** A pool over the real guarded fetcher; dispose it with `await using`. */
export function poolFor(
  config: Config,
  options: { maxPages?: number; maxQueue?: number } = {},
): BrowserPool {
  requireChromium();
  return new BrowserPool({ config, fetcher: new GuardedFetcher({ config }), ...options });
}

export interface Decoded {
  width: number;
  height: number;
  /** RGBA of the pixel at x, y. */
  pixel(x: number, y: number): [number, number, number, number];
}

/** Fully decodes a capture (pngjs / jpeg-js), independent of linkpeek's header reader. */
export function decode(bytes: Uint8Array): Decoded {
  const image = bytes[0] === 0x89
    ? PNG.sync.read(Buffer.from(bytes))
    : jpeg.decode(bytes, { useTArray: true });
  return {
    width: image.width,
    height: image.height,
    pixel(x, y) {
      const i = (y * image.width + x) * 4;
      const d = image.data;
      return [d[i]!, d[i + 1]!, d[i + 2]!, d[i + 3]!];
    },
  };
}
