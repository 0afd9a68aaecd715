import assert from "node:assert/strict";
import * as fx from "../media/_fixtures.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

const TOKEN = "token-6a1f";
const AGENT = "ProbeTester/1.0";

Deno.test("probes of the target's origin carry headers.*; other origins never do", async () => {
  const png = fx.png(16, 16);
  const image = () => new Response(png as BodyInit, { headers: { "content-type": "image/png" } });
  // Behind a login: the target's files answer only to the caller's token and user agent.
  const gated = (answer: () => Response) => (request: Request) =>
    request.headers.get("x-token") === TOKEN && request.headers.get("user-agent") === AGENT
      ? answer()
      : new Response("login first", { status: 403 });
  const seenElsewhere: Headers[] = [];
  await using other = serve({
    "/cover.png": (request) => {
      seenElsewhere.push(request.headers);
      return image();
    },
  });
  await using site = serve({
    "/page": gated(() =>
      html(`<html><head><title>Private</title>
        <meta property="og:image" content="${other.origin}/cover.png">
        <link rel="manifest" href="/app.webmanifest"></head><body>hi</body></html>`)
    ),
    "/app.webmanifest": gated(() =>
      Response.json({ icons: [{ src: "/icon-192.png", sizes: "192x192" }] })
    ),
    "/icon-192.png": gated(image),
  });
  await using bare = serve({
    "/page": gated(() => html("<title>No icons</title>")),
    "/favicon.ico": gated(image),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port, other.port, bare.port] }));
  const query = `&headers.x-token=${TOKEN}&headers.user-agent=${AGENT}`;

  const { status, body } = await app.json(q(`${site.origin}/page`, query));
  assert.equal(status, 200);
  assert.equal(body.data.title, "Private");
  assert.equal(body.data.logo?.url, `${site.origin}/icon-192.png`, "manifest and icon fetched");
  assert.equal(body.data.logo.width, 16);
  assert.equal(body.data.image?.url, `${other.origin}/cover.png`);
  assert.ok(seenElsewhere.length > 0, "the other origin's image was probed");
  for (const headers of seenElsewhere) {
    assert.equal(headers.get("x-token"), null, "no headers.* to another origin");
    assert.notEqual(headers.get("user-agent"), AGENT);
  }

  // The favicon, the logo's last candidate, is probed like any other file of the origin.
  const favicon = await app.json(q(`${bare.origin}/page`, query));
  assert.equal(favicon.body.data.logo?.url, `${bare.origin}/favicon.ico`);
});
