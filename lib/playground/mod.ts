/**
 * The playground: a static page (no build step, no CDN, no inline script) that calls the API
 * from the browser. Files are read from this folder so `deno compile --include` carries them.
 */

import { discoveryLinks } from "../oembed_endpoint/discovery.ts";

const CSP = "default-src 'self'; img-src * data:; media-src *";

/** URL path -> file in this folder and its content type. */
const FILES: Record<string, [string, string]> = {
  "/": ["index.html", "text/html; charset=utf-8"],
  "/playground.js": ["playground.js", "text/javascript; charset=utf-8"],
  "/playground.css": ["playground.css", "text/css; charset=utf-8"],
  "/favicon.svg": ["favicon.svg", "image/svg+xml"],
};

/** A browser asking for `/` with no query: API clients (no text/html in Accept) get JSON. */
export function wantsPlayground(request: Request, url: URL): boolean {
  return (request.method === "GET" || request.method === "HEAD") && url.pathname === "/" &&
    url.search === "" && (request.headers.get("accept") ?? "").includes("text/html");
}

/** Where index.html takes the oEmbed discovery links of the running configuration. */
const DISCOVERY_MARK = "<!-- oembed discovery -->";

/** The page and its static files; null for any other path. */
export async function playgroundAsset(
  path: string,
  publicUrl?: string,
): Promise<Response | null> {
  const file = FILES[path];
  if (!file) return null;
  const [name, contentType] = file;
  let body: Uint8Array<ArrayBuffer> | string = await Deno.readFile(
    new URL(`./${name}`, import.meta.url),
  );
  if (name === "index.html" && publicUrl !== undefined) {
    const page = `${publicUrl}/`;
    body = new TextDecoder().decode(body).replace(
      DISCOVERY_MARK,
      discoveryLinks(publicUrl, page),
    );
  }
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-security-policy": CSP,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      // Small files that change with releases: revalidate rather than cache stale code.
      "cache-control": "no-cache",
      ...(path === "/" ? { vary: "Accept, Accept-Encoding" } : {}),
    },
  });
}
