/**
 * The shipped provider list: schemes to endpoints, and the endpoints fetched through the guard.
 * Provider hosts resolve (injected resolver) to a public test address that the connector maps
 * onto one loopback TLS server with a throwaway CA: nothing leaves the machine.
 */
import assert from "node:assert/strict";
import { GuardedFetcher } from "../lib/fetch/mod.ts";
import { fetchIframe, oembedEndpoint } from "../lib/oembed/mod.ts";
import { registeredOembedUrl } from "../lib/oembed/registry.ts";
import { withProviderEmbed } from "../lib/oembed_endpoint/target_embed.ts";
import { certsFor } from "./extract/_certs.ts";
import { loopbackConnector, PUBLIC_IP, serve, tableResolver, testConfig } from "./_fixtures.ts";

const endpoint = (base: string, page: string) =>
  `${base}?url=${encodeURIComponent(page)}&format=json`;

Deno.test("registeredOembedUrl() finds the listed provider of each platform", async () => {
  const cases: [string, string | null][] = [
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/oembed"],
    ["https://youtu.be/dQw4w9WgXcQ", "https://www.youtube.com/oembed"],
    ["https://vimeo.com/76979871", "https://vimeo.com/api/oembed.json"],
    ["https://twitter.com/jack/status/20", "https://publish.twitter.com/oembed"],
    ["https://x.com/jack/status/20", "https://publish.twitter.com/oembed"],
    ["https://www.tiktok.com/@ada/video/7000000000000000001", "https://www.tiktok.com/oembed"],
    ["https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC", "https://open.spotify.com/oembed"],
    ["https://soundcloud.com/ada/first-song", "https://soundcloud.com/oembed"],
    ["https://www.flickr.com/photos/ada/123", "https://www.flickr.com/services/oembed/"],
    ["https://example.com/watch?v=1", null],
    // A provider's host only as a path or as a prefix of another host is not that provider.
    ["https://evil.example/a.youtube.com/watch?v=1", null],
    ["https://www.youtube.com.evil.example/watch?v=1", null],
    ["https://www.youtube.com/" + "a".repeat(3000), null],
  ];
  for (const [page, base] of cases) {
    assert.equal(await registeredOembedUrl(page), base && endpoint(base, page), page);
  }
});

Deno.test("registeredOembedUrl() holds the event loop briefly for a URL of many slashes", async () => {
  await registeredOembedUrl("https://backtracks.fm/"); // the list is loaded once, on first use
  // backtracks.fm/*/*/*/*/e/*/* comes first among its schemes; as a regular expression it tried
  // every split of these slashes before the catch-all matched: ~2 s on the event loop, 40 s
  // for 600. Linear now: about 1 ms, far below the bound on any machine.
  const page = "https://backtracks.fm/" + "/".repeat(400) + "x";
  const started = performance.now();
  const found = await registeredOembedUrl(page);
  const took = performance.now() - started;
  assert.equal(found, endpoint("https://backtracks.fm/oembed", page));
  assert.ok(took < 500, `matching took ${Math.round(took)} ms`);
});

Deno.test("the listed provider answers iframe when the page names none; its own link wins", async (t) => {
  const hosts = ["www.youtube.com", "publish.twitter.com"];
  const { ca, cert, key } = await certsFor(hosts);
  const seen: string[] = [];
  await using server = serve(
    (request) => {
      const url = new URL(request.url);
      seen.push(`${url.hostname}${url.pathname}${url.search}`);
      return Response.json({
        type: "video",
        version: "1.0",
        title: "A video",
        width: 480,
        height: 270,
        html: `<iframe src="https://www.youtube.com/embed/abc" width="480" height="270"></iframe>`,
      });
    },
    { cert, key },
  );
  const resolver = tableResolver({
    "www.youtube.com": [PUBLIC_IP],
    "publish.twitter.com": ["10.0.0.7"],
  });
  const connector = loopbackConnector({ [PUBLIC_IP]: server.port });
  const fetcher = new GuardedFetcher({
    config: testConfig(),
    network: { resolver, connector },
    ca: [ca],
  });

  await t.step("no discovery link: YouTube's listed endpoint, sized", async () => {
    const page = "https://youtu.be/abc";
    const url = await oembedEndpoint({ discovered: null, url: page });
    const iframe = await fetchIframe(url!, { fetcher, maxWidth: 640 });
    assert.equal(iframe?.html.startsWith('<iframe src="https://www.youtube.com/embed/abc"'), true);
    assert.equal(
      seen.at(-1),
      `www.youtube.com/oembed?url=${encodeURIComponent(page)}&format=json&maxwidth=640`,
    );
  });

  await t.step("the page's own discovery link wins over the list", async () => {
    const discovered = "https://www.youtube.com/own-oembed?id=abc";
    assert.equal(await oembedEndpoint({ discovered, url: "https://youtu.be/abc" }), discovered);
  });

  await t.step("a listed endpoint on a forbidden address is refused by the guard", async () => {
    const url = await oembedEndpoint({ discovered: null, url: "https://x.com/ada/status/1" });
    assert.match(url!, /^https:\/\/publish\.twitter\.com\/oembed\?/);
    const before = seen.length;
    assert.equal(await fetchIframe(url!, { fetcher }), null);
    assert.equal(seen.length, before);
    assert.equal(connector.dialled.some((d) => d.startsWith("10.0.0.7")), false);
  });

  await t.step("/oembed's provider step uses the list too", async () => {
    const payload = {
      status: "success" as const,
      data: { url: "https://www.youtube.com/watch?v=abc", title: "Page title" },
      statusCode: 200,
      redirects: [],
      headers: {},
    };
    const result = await withProviderEmbed(payload, {
      fetcher,
      signal: new AbortController().signal,
      ownOrigin: "https://linkpeek.test",
      maxWidth: null,
      maxHeight: null,
    });
    const embed = result.data.linkpeekOembed as { type: string; html: string } | null;
    assert.equal(embed?.type, "video");
    assert.match(embed!.html, /youtube\.com\/embed\/abc/);
  });
});
