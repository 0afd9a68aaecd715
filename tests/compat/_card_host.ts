/**
 * A host page on its own loopback origin that loads Microlink's card SDK (@microlink/vanilla's
 * UMD bundle) and the globals it needs (React, ReactDOM, ReactIs, styled, mql), each read from
 * the npm package pinned in deno.json: nothing comes from a CDN.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Fixture, html, serve } from "../_fixtures.ts";

/** A pinned package's directory, from the file its bare specifier resolves to. */
function packageDir(specifier: string, entryDepth: number): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(specifier)));
  for (let i = 0; i < entryDepth; i++) dir = dirname(dir);
  return dir;
}

// In load order: each UMD bundle reads the globals the ones before it set.
const BUNDLES: [name: string, file: string][] = [
  ["react.js", join(packageDir("react", 0), "umd/react.production.min.js")],
  ["react-dom.js", join(packageDir("react-dom", 0), "umd/react-dom.production.min.js")],
  ["react-is.js", join(packageDir("react-is", 0), "umd/react-is.production.min.js")],
  ["styled.js", join(packageDir("styled-components", 1), "dist/styled-components.min.js")],
  ["mql.js", join(packageDir("@microlink/mql", 1), "dist/index.umd.js")],
  ["microlink.js", join(packageDir("@microlink/vanilla", 1), "dist/microlink.js")],
];

export function serveCardHost(): Fixture {
  const scripts = BUNDLES.map(([name]) => `<script src="/vendor/${name}"></script>`).join("\n");
  const routes: Record<string, () => Response> = {
    "/": () =>
      html(
        `<!doctype html><html><head><meta charset="utf-8">${scripts}</head><body></body></html>`,
      ),
  };
  for (const [name, file] of BUNDLES) {
    routes[`/vendor/${name}`] = () =>
      new Response(Deno.readFileSync(file), {
        headers: { "content-type": "text/javascript; charset=utf-8" },
      });
  }
  return serve(routes);
}
