/**
 * Bytes linkpeek did not make are served under a type taken from the bytes alone: inline only
 * when they are a raster image, audio, video or PDF; anything else is an attachment under a
 * sandboxing CSP. Field lookups read own data fields only.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { hostAsset, serveAsset } from "../../lib/api/assets.ts";
import { createServices } from "../../lib/services/mod.ts";

const SANDBOX = "default-src 'none'; sandbox";
const SCRIPT = "<html><script>alert(document.domain)</script></html>";
const PNG_MAGIC = "\x89PNG\r\n\x1a\n";
/** One byte per character, so that magic bytes above 0x7f stay single bytes. */
const bytesOf = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function pageWithImage(path: string) {
  return html(`<title>t</title><meta property="og:image" content="${path}">`);
}

Deno.test("embed takes an answer's type from the sniffed bytes, never from the target", async (t) => {
  const cases: [string, string, string, string | null][] = [
    // [path, declared content-type, body, expected inline type (null: attachment)]
    ["/gif-as-html", "text/html", `GIF89a${SCRIPT}`, "image/gif"],
    ["/png-as-html", "text/html; charset=utf-8", `${PNG_MAGIC}${SCRIPT}`, "image/png"],
    ["/pdf-as-xhtml", "application/xhtml+xml", `%PDF-1.4 ${SCRIPT}`, "application/pdf"],
    ["/html-as-png", "image/png", SCRIPT, null],
    ["/html-as-gif", "image/gif", `<!doctype html>${SCRIPT}`, null],
    ["/svg-as-png", "image/png", `<svg xmlns="http://www.w3.org/2000/svg">${SCRIPT}</svg>`, null],
    ["/playlist", "application/vnd.apple.mpegurl", `#EXTM3U\n${SCRIPT}`, null],
    ["/nothing-declared", "", SCRIPT, null],
  ];
  const routes: Record<string, (request: Request) => Response> = {};
  for (const [path, type, body] of cases) {
    routes[path] = () =>
      new Response(bytesOf(body), { headers: type ? { "content-type": type } : {} });
    routes[`${path}/page`] = () => pageWithImage(path);
  }
  await using site = serve(routes);
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  for (const [path, declared, body, inline] of cases) {
    await t.step(`${path} (declared "${declared}")`, async () => {
      const response = await app.get(
        q(`${site.origin}${path}/page`, "&ping=false&embed=image.url"),
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      if (inline) {
        assert.equal(response.headers.get("content-type"), inline);
        assert.equal(response.headers.get("content-disposition"), null);
      } else {
        assert.equal(response.headers.get("content-type"), "application/octet-stream");
        assert.equal(response.headers.get("content-disposition"), "attachment");
        assert.equal(response.headers.get("content-security-policy"), SANDBOX);
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.deepEqual(bytes, bytesOf(body), "the bytes themselves are unchanged");
    });
  }
});

Deno.test("embed of a text field is text under the sandbox CSP, never markup", async () => {
  await using site = serve({
    "/": () => html(`<title>${SCRIPT.replace(/</g, "&lt;")}</title>`),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  for (const [embed, type] of [["title", "text/plain"], ["url", null]] as const) {
    const response = await app.get(q(`${site.origin}/`, `&ping=false&embed=${embed}`));
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(response.headers.get("content-security-policy"), SANDBOX, embed);
    if (type) assert.equal(response.headers.get("content-type"), `${type}; charset=utf-8`);
    else assert.equal(response.headers.get("content-disposition"), "attachment");
    await response.body?.cancel();
  }
});

Deno.test("a hosted asset is served by what its bytes are, not by the type it was stored with", async () => {
  const config = testConfig();
  const services = await createServices(config);
  const html = new TextEncoder().encode(SCRIPT);
  const stored = await hostAsset(services, {
    bytes: html,
    type: "png",
    width: null,
    height: null,
    credentialed: false,
  });
  const response = (await serveAsset(services, new URL(stored.url).pathname))!;
  assert.equal(response.headers.get("content-type"), "application/octet-stream");
  assert.equal(response.headers.get("content-disposition"), "attachment");
  assert.equal(response.headers.get("content-security-policy"), SANDBOX);
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  await response.body?.cancel();
  await services.close();
  await Deno.remove(config.dataDir, { recursive: true });
});

Deno.test("embed and filter read own data fields only, never inherited ones", async (t) => {
  await using site = serve({
    "/": () =>
      html(`<title>Own</title><script id="j" type="application/json">
        {"__proto__": {"polluted": "yes"}, "constructor": {"name": "own"}}</script>`),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  for (const path of ["toString", "constructor", "__proto__", "title.length", "hasOwnProperty"]) {
    await t.step(`embed=${path} is ENOTFOUND`, async () => {
      const { status, body } = await app.json(q(`${site.origin}/`, `&ping=false&embed=${path}`));
      assert.equal(status, 404, JSON.stringify(body));
      assert.equal(body.code, "ENOTFOUND");
    });
  }
  await t.step("filter skips inherited names", async () => {
    const { body } = await app.json(
      q(`${site.origin}/`, "&ping=false&filter=title,toString,constructor.name,__proto__"),
    );
    assert.deepEqual(body.data, { title: "Own" });
  });
  await t.step("a page's own __proto__ key is data, and never reaches a prototype", async () => {
    const rules = "&data.j.selector=%23j&data.j.attr=json";
    const { body } = await app.json(
      q(`${site.origin}/`, `&ping=false${rules}&filter=j.__proto__.polluted,j.constructor.name`),
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype is clean");
    assert.deepEqual(JSON.parse(JSON.stringify(body.data)), {
      j: { ["__proto__"]: { polluted: "yes" }, constructor: { name: "own" } },
    });
    const embedded = await app.get(
      q(`${site.origin}/`, `&ping=false${rules}&embed=j.__proto__.polluted`),
    );
    assert.equal(await embedded.text(), "yes");
  });
});
