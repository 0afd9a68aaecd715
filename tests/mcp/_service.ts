/**
 * What the MCP tests share: a loopback site to read (an article with links, images, an e-mail
 * link and a PNG), and the real service listening on loopback (Deno.serve over the real
 * handler), as `deno task start` runs it. The site's port is trusted, as TRUSTED_TARGETS would
 * make it; every other loopback port stays forbidden to the guard.
 */
import { PNG } from "pngjs";
import { Client } from "@modelcontextprotocol/sdk/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHandler, type Handler } from "../../lib/handler/mod.ts";
import type { Config } from "../../lib/config/mod.ts";
import { type Fixture, html, serve, testConfig, type TestConfigOptions } from "../_fixtures.ts";

const PARAGRAPH = "Calm interfaces ask for attention only when it matters. They let people " +
  "finish what they came to do, and they keep quiet otherwise. ";

export const ARTICLE = `<!doctype html><html lang="en"><head>
<title>Calm interfaces</title>
<meta name="description" content="Why calm software wins.">
<meta property="og:image" content="/hero.png">
</head><body>
<nav><a href="/home">Home</a> <a href="/about">About</a></nav>
<main><article>
<h1>Calm interfaces</h1>
<p>${PARAGRAPH.repeat(4)}</p>
<p>Write to <a href="mailto:editor@site.example">the editor</a> or read <a href="/more">more</a>.</p>
<img src="/hero.png" alt="A calm hero">
<p>${PARAGRAPH.repeat(3)}</p>
</article></main>
<footer>Footer words nobody reads.</footer>
</body></html>`;

export function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return new Uint8Array(PNG.sync.write(image)) as Uint8Array<ArrayBuffer>;
}

export function site(): Fixture {
  const hero = png(120, 60);
  return serve({
    "/article": () => html(ARTICLE),
    "/hero.png": () => new Response(hero, { headers: { "content-type": "image/png" } }),
  });
}

export interface Service extends AsyncDisposable {
  handler: Handler;
  config: Config;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The pro port's origin, when one was asked for. */
  proOrigin: string | null;
}

/** The real service on loopback ports (and a pro port with `pro`), over `options`' config. */
export async function startService(
  options: TestConfigOptions & { pro?: boolean } = {},
): Promise<Service> {
  const { pro, ...rest } = options;
  const config = testConfig({
    ...rest,
    env: { PUBLIC_URL: "http://linkpeek.test", ...rest.env },
  });
  const handler = await createHandler(config);
  const listen = (isPro: boolean) =>
    Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      (request, info) =>
        handler(request, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname, pro: isPro }),
    );
  const servers = [listen(false), ...(pro ? [listen(true)] : [])];
  const [main, proServer] = servers;
  return {
    handler,
    config,
    origin: `http://127.0.0.1:${main!.addr.port}`,
    proOrigin: proServer ? `http://127.0.0.1:${proServer.addr.port}` : null,
    async [Symbol.asyncDispose]() {
      await Promise.all(servers.map((server) => server.shutdown()));
      await handler.close();
      await Deno.remove(config.dataDir, { recursive: true }).catch(() => {});
    },
  };
}

/** The SDK's own client over Streamable HTTP, connected to `<origin>/mcp`. */
export async function httpClient(
  origin: string,
  headers: Record<string, string> = {},
): Promise<Client & AsyncDisposable> {
  const client = new Client({ name: "linkpeek-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", origin), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}
