/**
 * The SSRF catalogue. A canary loopback server that is NOT trusted stands behind every
 * address the connector could be asked for: a guard failure would show up as a canary hit,
 * and nothing can ever be dialled beyond loopback.
 */
import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { parseTrustedTargets } from "../../lib/guard/trusted.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import type { Resolver } from "../../lib/guard/types.ts";
import { PUBLIC_IP, serve, tableResolver, testConfig } from "../_fixtures.ts";

function expectCode(expected: string) {
  return (e: ApiError) => {
    assert.equal(e.name, "ApiError", `expected ApiError, got ${e}`);
    assert.equal(e.code, expected, e.message);
    return true;
  };
}

/** Every forbidden form, aimed at the canary's port `P` where a port applies. */
function forbiddenUrls(p: number): string[] {
  return [
    `http://2130706433:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://0x7f.1:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://127.1:${p}/`,
    `http://127.0.0.1.:${p}/`,
    `http://[::1]:${p}/`,
    `http://[0:0:0:0:0:0:0:1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[::127.0.0.1]:${p}/`,
    `http://[64:ff9b::7f00:1]:${p}/`,
    `http://[64:ff9b::a00:1]:${p}/`,
    `http://[2002:7f00:1::]:${p}/`,
    `http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]:${p}/`,
    `http://[2001::7f00:1]:${p}/`,
    `http://[::]:${p}/`,
    `http://[fe80::1]:${p}/`,
    `http://[fd00::1]:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://0:${p}/`,
    `http://localhost:${p}/`,
    `http://localhost.:${p}/`,
    `http://LocalHost:${p}/`,
    `http://foo.localhost:${p}/`,
    `http://public.test@127.0.0.1:${p}/`,
    `http://public.test:80@127.0.0.1:${p}/`,
    `http://127\u30020\u30020\u30021:${p}/`,
    `http://\uFF11\uFF12\uFF17.0.0.1:${p}/`,
    `http://%31%32%37.0.0.1:${p}/`,
    `http://169.254.169.254:${p}/latest/meta-data/`,
    `http://10.0.0.1:${p}/`,
    `http://192.168.0.1:${p}/`,
    `http://100.64.0.1:${p}/`,
    `http://224.0.0.1:${p}/`,
    `http://255.255.255.255:${p}/`,
    `https://127.0.0.1:${p}/`,
  ];
}

const INVALID_URLS = [
  "file:///etc/passwd",
  "ftp://example.invalid/",
  "javascript:alert(1)",
  "data:text/html,<h1>hi</h1>",
  "gopher://127.0.0.1:70/",
  "ws://127.0.0.1/",
  "not a url",
  "http://",
  "http://[::1/",
];

Deno.test("fetch() refuses the SSRF catalogue without touching the canary", async (t) => {
  await using canary = serve(() => new Response("secret"));
  // Anything the guard let through would land on the canary.
  const connector = () => ({ host: "127.0.0.1", port: canary.port });
  const resolver = tableResolver({ "localhost.": ["127.0.0.1"], "localhost": ["127.0.0.1"] });
  const fetcher = new GuardedFetcher({ config: testConfig(), network: { resolver, connector } });
  for (const url of forbiddenUrls(canary.port)) {
    await t.step(`${url} is EFORBIDDENURL`, async () => {
      await assert.rejects(fetcher.fetch(url), expectCode("EFORBIDDENURL"));
    });
  }
  for (const url of INVALID_URLS) {
    await t.step(`${url} is EINVALURL`, async () => {
      await assert.rejects(fetcher.fetch(url), expectCode("EINVALURL"));
    });
  }
  assert.equal(canary.hits, 0);
});

Deno.test("fetch() refuses redirects to forbidden and non-http targets", async (t) => {
  await using canary = serve(() => new Response("secret"));
  await using site = serve((req) => {
    const to = new URL(req.url).searchParams.get("to") ?? "/";
    // Header values must be bytes: non-ASCII goes percent-encoded, as servers commonly send.
    const location = /^[ -~]*$/.test(to) ? to : encodeURI(to);
    return new Response(null, { status: 302, headers: { location } });
  });
  const connector = (_address: string, port: number) => ({
    host: "127.0.0.1",
    port: port === site.port ? site.port : canary.port,
  });
  const config = testConfig({ trustPorts: [site.port] });
  const fetcher = new GuardedFetcher({ config, network: { connector } });
  const hop = (to: string) => `${site.origin}/r?to=${encodeURIComponent(to)}`;
  for (const url of forbiddenUrls(canary.port)) {
    await t.step(`-> ${url} is EFORBIDDENURL`, async () => {
      await assert.rejects(fetcher.fetch(hop(url)), expectCode("EFORBIDDENURL"));
    });
  }
  for (const url of INVALID_URLS.slice(0, 6)) {
    await t.step(`-> ${url} is EINVALURL`, async () => {
      await assert.rejects(fetcher.fetch(hop(url)), expectCode("EINVALURL"));
    });
  }
  await t.step("-> a Location that is not a URL is EINVALURL", async () => {
    await assert.rejects(fetcher.fetch(hop("http://[::1")), expectCode("EINVALURL"));
  });
  assert.equal(canary.hits, 0);
  assert.ok(site.hits > 40, `site saw ${site.hits} requests`);
});

Deno.test("fetch() refuses names that resolve to private addresses", async (t) => {
  await using canary = serve(() => new Response("secret"));
  await using site = serve(() => new Response("public"));
  const resolver = tableResolver({
    "internal.test": ["10.0.0.5"],
    "metadata.test": ["169.254.169.254"],
    "mixed.test": [PUBLIC_IP, "fd00::5"],
    "mixed4.test": [PUBLIC_IP, "192.168.1.1"],
    "mapped.test": ["::ffff:127.0.0.1"],
    "loop6.test": ["::1"],
    "site.test": [PUBLIC_IP],
    "empty.test": [],
  });
  const connector = (address: string) => ({
    host: "127.0.0.1",
    port: address === PUBLIC_IP ? site.port : canary.port,
  });
  const fetcher = new GuardedFetcher({ config: testConfig(), network: { resolver, connector } });
  for (const host of ["internal", "metadata", "mixed", "mixed4", "mapped", "loop6"]) {
    await t.step(`${host}.test is EFORBIDDENURL`, async () => {
      await assert.rejects(fetcher.fetch(`http://${host}.test/`), (e: ApiError) => {
        expectCode("EFORBIDDENURL")(e);
        assert.equal(
          e.message,
          `The URL "http://${host}.test/" resolves to a forbidden address.`,
        );
        return true;
      });
    });
  }
  await t.step("a name with no address is EFETCH", async () => {
    await assert.rejects(fetcher.fetch("http://empty.test/"), expectCode("EFETCH"));
  });
  await t.step("an unknown name is EFETCH", async () => {
    await assert.rejects(fetcher.fetch("http://nowhere.test/"), expectCode("EFETCH"));
  });
  await t.step("the public name still works", async () => {
    const result = await fetcher.fetch("http://site.test/");
    assert.equal(new TextDecoder().decode(result.body), "public");
  });
  assert.equal(canary.hits, 0);
});

Deno.test("fetch() dials only the address it checked (DNS rebinding)", async (t) => {
  await using canary = serve(() => new Response("secret"));
  await using site = serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/") return new Response(null, { status: 302, headers: { location: "/next" } });
    return new Response(`page ${path}`);
  });
  // Public on the first lookup, private on every later one.
  let lookups = 0;
  const resolver: Resolver = () => Promise.resolve(lookups++ === 0 ? [PUBLIC_IP] : ["10.0.0.7"]);
  const dialled: string[] = [];
  const connector = (address: string) => {
    dialled.push(address);
    return { host: "127.0.0.1", port: address === PUBLIC_IP ? site.port : canary.port };
  };
  const fetcher = new GuardedFetcher({ config: testConfig(), network: { resolver, connector } });
  await t.step("one hop: the checked answer is the one dialled", async () => {
    const result = await fetcher.fetch("http://rebind.test/next");
    assert.equal(new TextDecoder().decode(result.body), "page /next");
    assert.equal(lookups, 1);
    assert.deepEqual(dialled, [PUBLIC_IP]);
  });
  await t.step("a redirect re-resolves and is refused when the answer turns private", async () => {
    lookups = 0;
    await assert.rejects(fetcher.fetch("http://rebind.test/"), expectCode("EFORBIDDENURL"));
    assert.equal(lookups, 2);
    assert.deepEqual(dialled, [PUBLIC_IP, PUBLIC_IP]);
  });
  await t.step("dial() pins the same way", async () => {
    lookups = 0;
    const socket = await fetcher.dial("rebind.test", 80);
    socket.destroy();
    await assert.rejects(fetcher.dial("rebind.test", 80), expectCode("EFORBIDDENURL"));
    assert.deepEqual(dialled, [PUBLIC_IP, PUBLIC_IP, PUBLIC_IP]);
  });
  assert.equal(canary.hits, 0);
});

Deno.test("fetch() never exempts linkpeek's own ports", async (t) => {
  await using canary = serve(() => new Response("secret"));
  const config = testConfig({
    trustedTargets: parseTrustedTargets("127.0.0.0/8:*,[::]/0:*,0.0.0.0/0:*"),
    ownPorts: [canary.port],
  });
  const connector = () => ({ host: "127.0.0.1", port: canary.port });
  const fetcher = new GuardedFetcher({ config, network: { connector } });
  for (const host of ["127.0.0.1", "127.0.0.2", "0.0.0.0", "[::1]", "[::]", "[::ffff:127.0.0.1]"]) {
    await t.step(`${host}:own port`, async () => {
      await assert.rejects(
        fetcher.fetch(`http://${host}:${canary.port}/`),
        expectCode("EFORBIDDENURL"),
      );
    });
  }
  await t.step("dial() too", async () => {
    await assert.rejects(fetcher.dial("127.0.0.1", canary.port), expectCode("EFORBIDDENURL"));
  });
  assert.equal(canary.hits, 0);
});

Deno.test("dial() refuses forbidden hosts in any spelling", async (t) => {
  await using canary = serve(() => new Response("secret"));
  const fetcher = new GuardedFetcher({
    config: testConfig(),
    network: { connector: () => ({ host: "127.0.0.1", port: canary.port }) },
  });
  for (const host of ["127.0.0.1", "0x7f.1", "2130706433", "::1", "[::1]", "localhost", "0"]) {
    await t.step(host, async () => {
      await assert.rejects(fetcher.dial(host, canary.port), expectCode("EFORBIDDENURL"));
    });
  }
  await t.step("an invalid port", async () => {
    await assert.rejects(fetcher.dial("site.test", 0), expectCode("EINVALURL"));
  });
  assert.equal(canary.hits, 0);
});

Deno.test("dial() connects a raw socket to a checked public name", async () => {
  await using site = serve(() => new Response("raw ok"));
  const resolver = tableResolver({ "site.test": [PUBLIC_IP] });
  const connector = () => ({ host: "127.0.0.1", port: site.port });
  const fetcher = new GuardedFetcher({ config: testConfig(), network: { resolver, connector } });
  const socket = await fetcher.dial("site.test", 80);
  const chunks: Uint8Array[] = [];
  const done = new Promise<void>((resolve, reject) => {
    socket.on("data", (c: Uint8Array) => chunks.push(c));
    socket.on("end", resolve);
    socket.on("error", reject);
  });
  socket.write("GET / HTTP/1.1\r\nhost: site.test\r\nconnection: close\r\n\r\n");
  await done;
  socket.destroy();
  const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
  assert.match(text, /^HTTP\/1\.1 200/);
  assert.match(text, /raw ok$/);
});
