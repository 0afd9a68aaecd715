import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { loopbackConnector, PUBLIC_IP, serve, tableResolver, testConfig } from "../_fixtures.ts";

function code(expected: string) {
  return (e: ApiError) => {
    assert.equal(e.name, "ApiError", `expected ApiError, got ${e}`);
    assert.equal(e.code, expected, e.message);
    return true;
  };
}

Deno.test("GuardedFetcher fetches a public name at the pinned address", async () => {
  await using site = serve((req) =>
    new Response(`ua=${req.headers.get("user-agent")} host=${req.headers.get("host")}`, {
      headers: { "content-type": "text/plain", "x-thing": "1" },
    })
  );
  const resolver = tableResolver({ "site.test": [PUBLIC_IP] });
  const connector = loopbackConnector({ [PUBLIC_IP]: site.port });
  const fetcher = new GuardedFetcher({ config: testConfig(), network: { resolver, connector } });
  const result = await fetcher.fetch("http://site.test/page?q=1");
  assert.equal(result.statusCode, 200);
  assert.equal(result.url, "http://site.test/page?q=1");
  assert.equal(
    new TextDecoder().decode(result.body),
    `ua=${testConfig().userAgent} host=site.test`,
  );
  assert.equal(result.headers["x-thing"], "1");
  assert.equal(result.headers["content-type"], "text/plain");
  assert.deepEqual(result.redirects, []);
  assert.equal(result.truncated, false);
  assert.deepEqual(connector.dialled, [`${PUBLIC_IP}:80`]);
  assert.equal(site.last?.target, "/page?q=1");
});

Deno.test("GuardedFetcher reaches a trusted loopback target and passes headers", async () => {
  await using site = serve((req) =>
    new Response(`${req.method} ua=${req.headers.get("user-agent")} x=${req.headers.get("x-a")}`)
  );
  const config = testConfig({ trustPorts: [site.port] });
  const fetcher = new GuardedFetcher({ config });
  const result = await fetcher.fetch(`${site.origin}/`, {
    headers: { "User-Agent": "custom/1", "X-A": "b" },
  });
  assert.equal(new TextDecoder().decode(result.body), "GET ua=custom/1 x=b");
  const head = await fetcher.fetch(`${site.origin}/`, { method: "HEAD" });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body.byteLength, 0);
  assert.equal(site.last!.method, "HEAD");
});

Deno.test("GuardedFetcher refuses an untrusted loopback target", async () => {
  await using canary = serve(() => new Response("secret"));
  const fetcher = new GuardedFetcher({ config: testConfig() });
  await assert.rejects(fetcher.fetch(`${canary.origin}/`), (e: ApiError) => {
    assert.equal(e.code, "EFORBIDDENURL");
    assert.equal(e.message, `The URL "${canary.origin}/" resolves to a forbidden address.`);
    return true;
  });
  assert.equal(canary.hits, 0);
});

Deno.test("GuardedFetcher reports unreachable targets as EFETCH", async (t) => {
  await t.step("refused port", async () => {
    const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
    const port = listener.addr.port;
    listener.close();
    const config = testConfig({ trustPorts: [port] });
    await assert.rejects(
      new GuardedFetcher({ config }).fetch(`http://127.0.0.1:${port}/`),
      (e: ApiError) => code("EFETCH")(e) && /refused/.test(e.message),
    );
  });
  await t.step(".invalid name with the system resolver", async () => {
    await assert.rejects(
      new GuardedFetcher({ config: testConfig() }).fetch("http://nothing.invalid/"),
      (e: ApiError) => code("EFETCH")(e) && e.message.includes("nothing.invalid"),
    );
  });
  await t.step("TLS to a plain HTTP server", async () => {
    await using site = serve(() => new Response("plain"));
    const config = testConfig({ trustPorts: [site.port] });
    await assert.rejects(
      new GuardedFetcher({ config }).fetch(`https://127.0.0.1:${site.port}/`),
      code("EFETCH"),
    );
  });
});
