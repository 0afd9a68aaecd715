/**
 * Platform endpoints (X syndication, Spotify and Telegram embed pages): read from hand-written
 * answers, then fetched for real through the guarded fetcher. Every platform host is mapped by
 * the injected resolver and connector onto one loopback TLS server with a throwaway CA; nothing
 * leaves the machine.
 */
import assert from "node:assert/strict";
import { buildPayload } from "../../lib/api/payload.ts";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { parseParams } from "../../lib/params/mod.ts";
import { createServices } from "../../lib/services/mod.ts";
import { endpointFor, fetchPlatformData } from "../../lib/extract/platforms/endpoint.ts";
import { spotify } from "../../lib/extract/platforms/spotify.ts";
import { backgroundUrl, telegram } from "../../lib/extract/platforms/telegram.ts";
import { syndicationToken, x } from "../../lib/extract/platforms/x.ts";
import { loopbackConnector, PUBLIC_IP, serve, tableResolver, testConfig } from "../_fixtures.ts";
import { certsFor } from "./_certs.ts";

const fixture = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/pages/platforms/${name}`, import.meta.url));

const TWEET = "https://x.com/adaexample/status/1700000000000000001";
const EPISODE = "https://open.spotify.com/episode/64TORH3xleuD1wcnFsrH1E";
const POST = "https://t.me/dealschannel/42";
const HOSTS = ["cdn.syndication.twimg.com", "open.spotify.com", "t.me"];

Deno.test("endpoint readers turn each platform's answer into field values", async (t) => {
  await t.step("X syndication JSON: author, text with links expanded, media, best mp4", () => {
    assert.deepEqual(x.endpoint!.read(fixture("endpoints/x_syndication.json"), new URL(TWEET)), {
      title: "Ada Example (@AdaExample) on X",
      author: "Ada Example",
      description: "Shipping today. Docs: https://docs.example.com/ship",
      date: "2023-09-08T10:11:12.000Z",
      image: "https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/poster.jpg",
      video: { src: "https://video.twimg.com/1/vid/1280x720/high.mp4", type: "video/mp4" },
    });
    assert.equal(x.endpoint!.read('{"__typename":"TweetTombstone"}', new URL(TWEET)), null);
  });
  await t.step("Spotify embed page: the entity in __NEXT_DATA__", () => {
    assert.deepEqual(
      spotify.endpoint!.read(fixture("endpoints/spotify_embed.html"), new URL(EPISODE)),
      {
        title: "Hasty Treat - Modules in Node",
        author: "Syntax - Tasty Web Development Treats",
        date: "2020-01-06T14:00:00Z",
        audio: {
          src: "https://podz-content.spotifycdn.com/audio/clips/abc/clip_1_2.mp3",
          type: "audio/mpeg",
        },
        image: "https://i.scdn.co/image/large",
        url: EPISODE,
      },
    );
    assert.equal(
      spotify.endpoint!.read("<html><body>no state</body></html>", new URL(EPISODE)),
      null,
    );
  });
  await t.step("Telegram widget: the message date and its photo", () => {
    assert.deepEqual(
      telegram.endpoint!.read(fixture("endpoints/telegram_widget.html"), new URL(POST)),
      {
        date: "2021-10-02T20:46:20+00:00",
        image: "https://cdn4.cdn-telegram.example/file/lamp.jpg",
      },
    );
  });
  await t.step("odd or hostile answers: null or what can be read, never a throw", () => {
    const tweet = (extra: Record<string, unknown>) =>
      x.endpoint!.read(
        JSON.stringify({ __typename: "Tweet", text: "hi", ...extra }),
        new URL(TWEET),
      );
    assert.equal(
      tweet({ entities: { urls: { url: "x" } }, user: { name: {} } })?.description,
      "hi",
    );
    assert.equal(tweet({ entities: { urls: { url: "x" } }, user: { name: {} } })?.title, undefined);
    assert.equal(tweet({ text: "x".repeat(30_000) }), null);
    const flat = `<script id="__NEXT_DATA__">${
      JSON.stringify({ a: Array(200_000).fill([1]) })
    }</script>`;
    assert.equal(spotify.endpoint!.read(flat, new URL(EPISODE)), null);
  });
  await t.step("endpoint URLs only for the pages that have one", () => {
    assert.equal(
      endpointFor(TWEET),
      `https://cdn.syndication.twimg.com/tweet-result?id=1700000000000000001&token=${
        syndicationToken("1700000000000000001")
      }&lang=en`,
    );
    assert.equal(syndicationToken("1700000000000000001"), "44cpgxmyurn");
    assert.equal(
      endpointFor(EPISODE),
      "https://open.spotify.com/embed/episode/64TORH3xleuD1wcnFsrH1E",
    );
    assert.equal(endpointFor(POST), "https://t.me/dealschannel/42?embed=1&mode=tme");
    for (
      const none of [
        "https://x.com/adaexample",
        "https://t.me/dealschannel",
        "https://example.com/",
      ]
    ) {
      assert.equal(endpointFor(none), null, none);
    }
  });
});

/** One loopback TLS server answering for every platform host, counting requests by path. */
async function platformServer() {
  const { ca, cert, key } = await certsFor(HOSTS);
  const seen: { host: string; path: string; accept: string | null }[] = [];
  // A held request: `arrived` resolves when it reaches the server, `release` lets it answer.
  let release = () => {};
  let arrive = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const server = serve(
    async (req) => {
      const url = new URL(req.url);
      seen.push({
        host: url.hostname,
        path: url.pathname + url.search,
        accept: req.headers.get("accept"),
      });
      const route = `${url.hostname}${url.pathname}`;
      if (route === "cdn.syndication.twimg.com/tweet-result") {
        return new Response(fixture("endpoints/x_syndication.json"), {
          headers: { "content-type": "application/json" },
        });
      }
      const html = (body: string) =>
        new Response(body, { headers: { "content-type": "text/html" } });
      if (route === "open.spotify.com/embed/episode/64TORH3xleuD1wcnFsrH1E") {
        return html(fixture("endpoints/spotify_embed.html"));
      }
      if (route === "t.me/dealschannel/42") {
        return html(
          fixture(
            url.searchParams.has("embed") ? "endpoints/telegram_widget.html" : "telegram.html",
          ),
        );
      }
      if (route === "t.me/held/1") {
        arrive();
        await held;
        return html(fixture("endpoints/telegram_widget.html"));
      }
      return new Response("gone", { status: 404 });
    },
    { cert, key },
  );
  const resolver = tableResolver(Object.fromEntries(HOSTS.map((h) => [h, [PUBLIC_IP]])));
  const connector = loopbackConnector({ [PUBLIC_IP]: server.port });
  return {
    ca,
    seen,
    resolver,
    connector,
    release,
    arrived,
    async [Symbol.asyncDispose]() {
      release();
      await server[Symbol.asyncDispose]();
    },
  };
}

Deno.test("fetchPlatformData() fetches through the guarded fetcher, cached", async (t) => {
  await using site = await platformServer();
  const network = { resolver: site.resolver, connector: site.connector };
  const fetcher = new GuardedFetcher({ config: testConfig(), network, ca: [site.ca] });

  await t.step("X: the syndication JSON, asked for as JSON", async () => {
    const data = await fetchPlatformData(TWEET, { fetcher });
    assert.equal(data?.author, "Ada Example");
    const last = site.seen.at(-1)!;
    assert.equal(last.host, "cdn.syndication.twimg.com");
    assert.equal(last.path, `/tweet-result?id=1700000000000000001&token=44cpgxmyurn&lang=en`);
    assert.equal(last.accept, "application/json");
  });
  await t.step("Spotify and Telegram: their embed pages", async () => {
    assert.equal((await fetchPlatformData(EPISODE, { fetcher }))?.date, "2020-01-06T14:00:00Z");
    assert.equal((await fetchPlatformData(POST, { fetcher }))?.date, "2021-10-02T20:46:20+00:00");
  });
  await t.step(
    "a second ask, even while the first is in flight, is not a second request",
    async () => {
      const before = site.seen.length;
      const [a, b] = await Promise.all([
        fetchPlatformData(TWEET, { fetcher }),
        fetchPlatformData(TWEET, { fetcher }),
      ]);
      assert.deepEqual(a, b);
      assert.equal(site.seen.length, before);
    },
  );
  await t.step("a failure is null and not remembered", async () => {
    const before = site.seen.length;
    assert.equal(await fetchPlatformData("https://t.me/gone/7", { fetcher }), null);
    assert.equal(await fetchPlatformData("https://t.me/gone/7", { fetcher }), null);
    assert.equal(site.seen.length, before + 2);
  });
  await t.step("pages without an endpoint make no request", async () => {
    const before = site.seen.length;
    assert.equal(await fetchPlatformData("https://x.com/adaexample", { fetcher }), null);
    assert.equal(await fetchPlatformData("https://example.com/", { fetcher }), null);
    assert.equal(await fetchPlatformData("not a url", { fetcher }), null);
    assert.equal(site.seen.length, before);
  });
  await t.step("the request's deadline bounds it: an abort gives null", async () => {
    const deadline = new AbortController();
    const pending = fetchPlatformData("https://t.me/held/1", { fetcher, signal: deadline.signal });
    await site.arrived;
    deadline.abort();
    assert.equal(await pending, null);
    site.release();
  });
});

Deno.test("fetchPlatformData() never reaches a platform host that resolves to a private address", async () => {
  await using site = await platformServer();
  const resolver = tableResolver({ "t.me": ["10.0.0.8"] });
  const connector = loopbackConnector({ [PUBLIC_IP]: 1 });
  const fetcher = new GuardedFetcher({
    config: testConfig(),
    network: { resolver, connector },
    ca: [site.ca],
  });
  assert.equal(await fetchPlatformData(POST, { fetcher }), null);
  assert.deepEqual(connector.dialled, []);
  assert.equal(resolver.calls["t.me"], 1);
});

Deno.test("buildPayload() asks the platform endpoint, unless meta=false", async (t) => {
  await using site = await platformServer();
  const config = testConfig();
  const network = { resolver: site.resolver, connector: site.connector };
  const services = await createServices(config, network);
  services.fetcher = new GuardedFetcher({ config, network, ca: [site.ca] });
  const run = (query: string) =>
    buildPayload({
      params: parseParams(new URLSearchParams(`url=${POST}&ping=false${query}`), {
        maxTimeoutMs: 30_000,
      }),
      target: new URL(POST),
      services,
      signal: new AbortController().signal,
      credentialed: false,
      rules: null,
    });
  try {
    await t.step(
      "the widget's date fills data.date; the page and the widget are fetched once",
      async () => {
        const { payload } = await run("");
        assert.equal(payload.data.date, "2021-10-02T20:46:20.000Z");
        assert.equal(payload.data.author, "Deals Channel");
        const paths = site.seen.map((s) => s.path);
        assert.deepEqual(paths.sort(), ["/dealschannel/42", "/dealschannel/42?embed=1&mode=tme"]);
      },
    );
    await t.step("meta=false: no endpoint request", async () => {
      site.seen.length = 0;
      // a fresh fetcher has an empty endpoint cache
      services.fetcher = new GuardedFetcher({ config, network, ca: [site.ca] });
      await run("&meta=false&iframe");
      assert.deepEqual(site.seen.map((s) => s.path), ["/dealschannel/42"]);
    });
  } finally {
    await services.close();
  }
});

Deno.test("a Telegram widget's background-image url is read in one pass", () => {
  assert.equal(
    backgroundUrl("background-image:url('https://a.invalid/p.jpg')"),
    "https://a.invalid/p.jpg",
  );
  assert.equal(backgroundUrl('width:1px;background-image: url( "/p.jpg" )'), "/p.jpg");
  assert.equal(backgroundUrl("background-image:url(/p.jpg)"), "/p.jpg");
  assert.equal(backgroundUrl("background-image:url()"), undefined);
  assert.equal(backgroundUrl("color:red"), undefined);
  // Lazy `(.*?)\1\s*\)` backtracked over each space of the run: minutes for these 50,000.
  assert.equal(backgroundUrl(`background-image:url(${" ".repeat(50_000)}x`), undefined);
});
