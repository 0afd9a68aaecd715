/**
 * Microlink's x-api-header-* request headers: a private page's cookie or token sent as a header
 * of the API request, never in a URL. Forwarded to the target's origin only, the answer private,
 * through the API, @microlink/mql and a browser's cross-origin fetch (real Chromium, preflight).
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import puppeteer from "puppeteer-core";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";
import { serveLinkpeek } from "../ops/_listen.ts";
import { CHROMIUM, requireChromium } from "../browser/_helpers.ts";
import type { Any } from "../compat/_mql.ts";

/** A page that greets its session cookie, with an image on another origin that records cookies. */
function privateSite() {
  const elsewhere = serve({ "/img.png": () => new Response("no", { status: 404 }) });
  const site = serve({
    "/private": (request) => {
      const session = /session=(\w+)/.exec(request.headers.get("cookie") ?? "")?.[1];
      const auth = request.headers.get("authorization");
      if (!session) return html("<title>Sign in</title>", { status: 401 });
      return html(
        `<title>Hello ${session}${auth ? ` (${auth})` : ""}</title>` +
          `<meta property="og:image" content="${elsewhere.origin}/img.png">`,
      );
    },
    "/cors": () => html("<title>host page</title>"),
  });
  return {
    site,
    elsewhere,
    async [Symbol.asyncDispose]() {
      await site[Symbol.asyncDispose]();
      await elsewhere[Symbol.asyncDispose]();
    },
  };
}

Deno.test("x-api-header-* reaches the target's origin only, and the answer stays private", async () => {
  await using sites = privateSite();
  const { site, elsewhere } = sites;
  await using app = await testApp(testConfig({ trustPorts: [site.port, elsewhere.port] }));
  const page = `${site.origin}/private`;
  const signedIn = await app.json(q(page), {
    headers: {
      "x-api-header-cookie": "session=ada42",
      "x-api-header-authorization": "Bearer t0ken",
    },
  });
  assert.equal(signedIn.status, 200);
  assert.equal(signedIn.body.data.title, "Hello ada42 (Bearer t0ken)");
  assert.equal(signedIn.headers.get("cache-control"), "private, no-store");
  assert.equal(site.last?.headers.cookie, "session=ada42");
  // the image on another origin was probed without the caller's cookie or token
  assert.ok(elsewhere.hits > 0);
  for (const seen of elsewhere.seen) {
    assert.equal(seen.headers.cookie, undefined);
    assert.equal(seen.headers.authorization, undefined);
  }
  // without the header: the target's own answer, never the private one from a cache
  const anonymous = await app.json(q(page));
  assert.equal(anonymous.body.data.title, "Sign in");
  assert.equal(anonymous.body.statusCode, 401);
  // another session is another private answer
  const other = await app.json(q(page), { headers: { "x-api-header-cookie": "session=bob7" } });
  assert.equal(other.body.data.title, "Hello bob7");
  // the same checks as headers.*: a header that cannot be forwarded is refused by name
  const refused = await app.json(q(page), { headers: { "x-api-header-host": "evil.invalid" } });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.code, "EINVALQUERY");
  assert.match(refused.body.message, /headers\.host/);
  assert.doesNotMatch(JSON.stringify(refused.body), /ada42|bob7/);
});

Deno.test("x-api-header-* through @microlink/mql and a browser's cross-origin fetch", async (t) => {
  requireChromium();
  await using sites = privateSite();
  const { site } = sites;
  const config = testConfig({ trustPorts: [sites.site.port, sites.elsewhere.port] });
  await using linkpeek = await serveLinkpeek(config);
  const page = `${site.origin}/private`;

  await t.step("mql sends it as a request header (its third argument)", async () => {
    const result: Any = await mql(page, { endpoint: linkpeek.origin }, {
      headers: { "x-api-header-cookie": "session=mql1" },
    } as Any);
    assert.equal(result.data.title, "Hello mql1");
  });

  await t.step("a web page on another origin may send it (CORS preflight allows it)", async () => {
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--proxy-server=direct://"],
    });
    try {
      const tab = await browser.newPage();
      await tab.goto(`${site.origin}/cors`);
      const title = await tab.evaluate(async (api: string) => {
        const response = await fetch(api, { headers: { "x-api-header-cookie": "session=web9" } });
        return (await response.json()).data.title;
      }, `${linkpeek.origin}/${q(page)}`);
      assert.equal(title, "Hello web9");
    } finally {
      await browser.close();
    }
  });
});
