/**
 * A target site for the Microlink-parity parameters (insights, function, evaluate, filename,
 * codeScheme), reached as `parity.test` through an injected resolver, a canary outside
 * TRUSTED_TARGETS that must never be contacted, and linkpeek serving on loopback.
 */
import { type Fixture, html, serve, testConfig } from "../_fixtures.ts";
import { type Canary, startCanary } from "../browser/_helpers.ts";
import { type Linkpeek, serveLinkpeek } from "../ops/_listen.ts";

export const TITLE = "Parity target";

/** Markers of well-known technologies: a generator meta, a framework's script path. */
const WORDPRESS = `<!doctype html><html lang="en"><head><title>${TITLE}</title>
<meta name="generator" content="WordPress 6.4.2">
<script src="/wp-includes/js/jquery/jquery.min.js"></script>
</head><body><h1>Blog</h1>
<p>A post long enough to read as a page of its own, and not as an empty application shell
waiting for its scripts.</p></body></html>`;

/** A page whose script sets a value only the browser can see, and a list to count. */
const APP = `<!doctype html><html lang="en"><head><title>${TITLE}</title>
<script>window.APP_VERSION = "2.3.1";</script></head>
<body><h1>Heading</h1><ul><li>a</li><li>b</li><li>c</li></ul></body></html>`;

/**
 * A form for a function to drive: typing into the field and clicking the button shows the
 * greeting after a script's delay, and a link leads to a second page.
 */
const FORM = `<!doctype html><html lang="en"><head><title>Form</title></head><body>
<input id="name"><button id="go">Greet</button><ul><li>x</li><li>y</li></ul>
<a id="next" href="/second">Next</a>
<script>document.getElementById("go").addEventListener("click", () => setTimeout(() => {
  const out = document.createElement("p");
  out.id = "greeting";
  out.textContent = "Hello, " + document.getElementById("name").value;
  document.body.append(out);
}, 50));</script></body></html>`;

/** Accessibility that Lighthouse can score, with and without alt text on the image. */
const a11y = (alt: boolean) =>
  `<!doctype html><html lang="en"><head><title>${TITLE}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Pictures</h1><img src="/pixel.png" width="2" height="1"${
    alt ? ' alt="A red pixel"' : ""
  }></main></body></html>`;

// A 2x1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwSZGBgYAEPfBf9bxTkLAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

export interface ParityTarget extends AsyncDisposable {
  site: Fixture;
  canary: Canary;
  app: Linkpeek;
  endpoint: string;
  /** `parity.test` URL of a path on the site. */
  url(path: string): string;
}

export async function startParity(env: Record<string, string> = {}): Promise<ParityTarget> {
  const canary = startCanary();
  const site = serve({
    // A page that asks the browser for the canary: the egress guard must refuse it.
    "/canary-image": () =>
      html(`<!doctype html><html lang="en"><head><title>${TITLE}</title></head><body>
<img src="${canary.origin}/pixel.png" alt="never loaded"></body></html>`),
    "/wordpress": () =>
      html(WORDPRESS, {
        headers: {
          server: "nginx/1.25.3",
          "x-powered-by": "PHP/8.2.1",
          "set-cookie": "PHPSESSID=abc123; path=/",
        },
      }),
    "/app": () => html(APP, { headers: { "x-parity": "app" } }),
    "/form": () => html(FORM),
    "/second": () =>
      html(`<!doctype html><html lang="en"><head><title>Second</title></head><body>
<h1>Second page</h1></body></html>`),
    "/a11y-good": () => html(a11y(true)),
    "/a11y-bad": () => html(a11y(false)),
    "/pixel.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
    "/data.json": () =>
      new Response(JSON.stringify({ name: "linkpeek", tags: ["a", "b"], ok: true }), {
        headers: { "content-type": "application/json" },
      }),
  });
  const config = testConfig({
    trustPorts: [site.port],
    env: { CHROMIUM_PATH: "/usr/bin/chromium", ...env },
  });
  const resolver = (host: string) => Promise.resolve(host === "parity.test" ? ["127.0.0.1"] : []);
  const app = await serveLinkpeek(config, { hooks: { resolver } });
  return {
    site,
    canary,
    app,
    endpoint: `${app.origin}/`,
    url: (path) => `http://parity.test:${site.port}${path}`,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await canary[Symbol.asyncDispose]();
      await site[Symbol.asyncDispose]();
    },
  };
}
