/**
 * A rendered page that navigates itself away from http(s) (to `about:blank`, to a `blob:`
 * document) still answers with its own address: `data.url` stays the last http(s) URL.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

/**
 * A page that leaves itself as it is parsed (the visit's load is then the new document's);
 * `<html data-origin>` gives a selector that matches only once it has left.
 */
const leaving = (script: string) =>
  `<!doctype html><html data-origin><head><title>Leaving</title></head><body><p>leaving</p>
<script>${script}</script></body></html>`;

Deno.test("data.url stays the last http(s) URL when the page navigates to about:blank or blob:", async (t) => {
  await using target = serve({
    "/blank": () => html(leaving(`location.href = "about:blank";`)),
    "/blob": () =>
      html(leaving(`location.href = URL.createObjectURL(
  new Blob(["<p id=blob>made in a blob</p>"], { type: "text/html" }));`)),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const cases = [
    { path: "/blank", selector: "html:not([data-origin])" },
    { path: "/blob", selector: "#blob" },
  ];
  for (const { path, selector } of cases) {
    await t.step(path, async () => {
      const wait = `&waitForSelector=${encodeURIComponent(selector)}`;
      const { status, body } = await app.json(
        q(`${target.origin}${path}`, `&prerender=true&ping=false${wait}`),
      );
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.data.url, `${target.origin}${path}`);
    });
  }
});
