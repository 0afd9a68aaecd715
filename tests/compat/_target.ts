/**
 * A target site for the client compatibility tests, reached as `target.test` through an
 * injected resolver that answers 127.0.0.1 (the CLI strips loopback literals from its input,
 * and no real DNS is asked), plus a linkpeek on loopback with free and pro ports.
 */
import { createKey } from "../../lib/plans/keys.ts";
import { type Fixture, html, serve, testConfig } from "../_fixtures.ts";
import { type Linkpeek, serveLinkpeek } from "../ops/_listen.ts";

export const TITLE = "Compat target page";

// A 2x1 PNG.
export const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwSZGBgYAEPfBf9bxTkLAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

const PAGE = `<!doctype html><html lang="en"><head>
<title>fallback</title>
<meta property="og:title" content="${TITLE}">
<meta name="description" content="Served on loopback for @microlink clients.">
<meta name="author" content="Grace Hopper">
<meta property="og:image" content="/cover.png">
</head><body style="background:#fff"><h1>Compat</h1><p class="price">42.50</p></body></html>`;

export interface Compat extends AsyncDisposable {
  site: Fixture;
  app: Linkpeek;
  /** The page's URL as clients send it. */
  pageUrl: string;
  /** A registered pro key. */
  apiKey: string;
}

export async function startCompat(): Promise<Compat> {
  const site = serve({
    "/page": () => html(PAGE),
    // An article long enough that its answer is compressed (1 KB or more).
    "/long": () =>
      html(
        `<title>Long read</title><article>${
          Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} of a long read.</p>`).join("")
        }</article>`,
      ),
    "/cover.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  });
  const config = testConfig({
    trustPorts: [site.port],
    env: { CHROMIUM_PATH: "/usr/bin/chromium" },
  });
  const resolver = (host: string) => Promise.resolve(host === "target.test" ? ["127.0.0.1"] : []);
  const app = await serveLinkpeek(config, { pro: true, hooks: { resolver } });
  const { key } = await createKey(app.handler.services.store, { name: "compat" });
  return {
    site,
    app,
    pageUrl: `http://target.test:${site.port}/page`,
    apiKey: key,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await site[Symbol.asyncDispose]();
    },
  };
}
