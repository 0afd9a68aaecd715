/**
 * A host page on its own loopback origin that loads Microlink's card SDK (@microlink/vanilla's
 * UMD bundle) and the globals it needs (React, ReactDOM, ReactIs, styled, mql), each read from
 * the npm package pinned in deno.json: nothing comes from a CDN.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// Static imports put each pinned package in the module graph, so any test run installs it
// before import.meta.resolve below names its files.
import "react/package.json" with { type: "json" };
import "react-dom/package.json" with { type: "json" };
import "react-is/package.json" with { type: "json" };
import "styled-components/package.json" with { type: "json" };
import "@microlink/vanilla/package.json" with { type: "json" };
import "@microlink/mql";
import { type Fixture, html, serve } from "../_fixtures.ts";

/** A file of a pinned package; `anchor` is a specifier of that package that resolves. */
function packageFile(anchor: string, levelsUp: number, file: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(anchor)));
  for (let i = 0; i < levelsUp; i++) dir = dirname(dir);
  return join(dir, file);
}

// In load order: each UMD bundle reads the globals the ones before it set.
const BUNDLES: [name: string, file: string][] = [
  ["react.js", packageFile("react/package.json", 0, "umd/react.production.min.js")],
  ["react-dom.js", packageFile("react-dom/package.json", 0, "umd/react-dom.production.min.js")],
  ["react-is.js", packageFile("react-is/package.json", 0, "umd/react-is.production.min.js")],
  ["styled.js", packageFile("styled-components/package.json", 0, "dist/styled-components.min.js")],
  // mql exports only its entry (src/main.mjs); the UMD build sits beside it in dist/.
  ["mql.js", packageFile("@microlink/mql", 1, "dist/index.umd.js")],
  ["microlink.js", packageFile("@microlink/vanilla/package.json", 0, "dist/microlink.js")],
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
