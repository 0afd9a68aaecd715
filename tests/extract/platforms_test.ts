/**
 * Platform rules (lib/extract/platforms/), each platform on a small hand-written page
 * (tests/fixtures/pages/platforms/): chosen by host, first for the fields they define, the
 * generic rules for the rest. Endpoint answers are tested in platform_endpoint_test.ts.
 */
import assert from "node:assert/strict";
import { extract, type Extracted } from "../../lib/extract/mod.ts";
import { platformFor } from "../../lib/extract/platforms/mod.ts";
import type { PlatformData } from "../../lib/extract/platforms/platform.ts";

const page = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/pages/platforms/${name}.html`, import.meta.url));

/**
 * Compares fields; a non-empty list is compared with the first candidates (the platform's come
 * first, the generic rules may add more after them).
 */
function check(name: string, url: string, want: Partial<Extracted>, fetched?: PlatformData) {
  const got = extract(page(name), url, { fetched });
  for (const [key, value] of Object.entries(want)) {
    const actual = got[key as keyof Extracted];
    const head = Array.isArray(value) && value.length && Array.isArray(actual)
      ? actual.slice(0, value.length)
      : actual;
    assert.deepEqual(head, value, `${name}: field ${key}`);
  }
}

Deno.test("platformFor() picks a platform by the page's host, subdomains included", () => {
  const cases: [string, string | null][] = [
    ["https://www.youtube.com/watch?v=x", "youtube"],
    ["https://youtu.be/AbCdEfGhIjK", "youtube"],
    ["https://mobile.twitter.com/a/status/1", "x"],
    ["https://x.com/a", "x"],
    ["https://www.amazon.co.uk/dp/B0", "amazon"],
    ["https://amzn.to/3abc", "amazon"],
    ["https://open.spotify.com/track/1", "spotify"],
    ["https://t.me/channel/1", "telegram"],
    ["https://folha.uol.com.br/", "uol"],
    ["https://notyoutube.com/watch?v=x", null],
    ["https://x.com.example.org/a", null],
    ["https://example.com/", null],
    ["not a url", null],
  ];
  for (const [url, name] of cases) assert.equal(platformFor(url)?.name ?? null, name, url);
});

Deno.test("youtube: <title> without the suffix, channel, publisher, thumbnails after og:image", () => {
  check("youtube", "https://www.youtube.com/watch?v=AbCdEfGhIjK&list=PL1", {
    title: "Launch Day Highlights",
    author: "Rocket Channel",
    publisher: "YouTube",
    date: "2018-03-11T01:30:44.000Z",
    image: [
      "https://i.ytimg.com/vi/AbCdEfGhIjK/hqdefault.jpg",
      "https://img.youtube.com/vi/AbCdEfGhIjK/maxresdefault.jpg",
      "https://img.youtube.com/vi/AbCdEfGhIjK/sddefault.jpg",
      "https://img.youtube.com/vi/AbCdEfGhIjK/hqdefault.jpg",
      "https://img.youtube.com/vi/AbCdEfGhIjK/mqdefault.jpg",
    ],
  });
});

Deno.test("x: posts and profiles from og:title, permalink time and media", async (t) => {
  await t.step("a post: name, title, text with its media link dropped, permalink date", () => {
    check("x_post", "https://x.com/adaexample/status/1700000000000000001", {
      title: "Ada Example (@adaexample) on X",
      author: "Ada Example",
      description: "Shipping today. Docs: https://t.co/aaa",
      publisher: "X",
      date: "2023-09-08T10:11:12.000Z",
      image: ["https://pbs.twimg.com/media/PHOTO.jpg"],
      url: "https://x.com/adaexample/status/1700000000000000001",
    });
  });
  await t.step("a profile: JSON-LD bio and picture, its newest own post's date", () => {
    check("x_profile", "https://x.com/adaexample?lang=en", {
      title: "Ada Example (@adaexample) on X",
      author: "Ada Example",
      description: "Builds things",
      date: "2025-11-09T13:11:55.000Z",
      image: ["https://pbs.twimg.com/profile_images/1/face_400x400.jpg"],
    });
  });
  await t.step("the syndication answer, when fetched, comes first", () => {
    check("x_post", "https://x.com/adaexample/status/1700000000000000001", {
      author: "Ada E.",
      description: "From the endpoint",
      date: "2023-09-09T00:00:00.000Z",
    }, { author: "Ada E.", description: "From the endpoint", date: "2023-09-09T00:00:00Z" });
  });
});

Deno.test("tiktok: the page's state JSON, the time in a video id", async (t) => {
  await t.step("a video: caption, cover, author, the id's time", () => {
    check("tiktok", "https://www.tiktok.com/@dancer/video/7000000000000000000", {
      title: "Dancer (@dancer) on TikTok",
      author: "Dancer",
      description: "A spin on the roof",
      publisher: "TikTok",
      date: "2021-08-24T14:15:05.000Z",
      image: [
        "https://p16.tiktokcdn.example/origin-cover.jpeg",
        "https://p16.tiktokcdn.example/cover.jpeg",
        "https://p16.tiktokcdn.example/avatar-720.jpeg",
      ],
    });
  });
  await t.step("no video id in the URL: the state's creation time", () => {
    check("tiktok", "https://www.tiktok.com/@dancer", { date: "2020-09-13T12:26:40.000Z" });
  });
});

Deno.test("instagram: twitter:title, author from og:title, date from og:description", () => {
  check("instagram", "https://www.instagram.com/p/ABC123/", {
    title: "Photo Person (@photoperson) • Instagram photos and videos",
    author: "Photo Person",
    date: "2021-05-24T00:00:00.000Z",
    publisher: "Instagram",
  });
});

Deno.test("spotify: show as author, description after the invitation, endpoint facts first", async (t) => {
  await t.step("from the page alone", () => {
    check("spotify", "https://open.spotify.com/episode/64TORH3xleuD1wcnFsrH1E", {
      title: "An Episode",
      author: "The Example Show",
      description: "What the episode is about.",
      publisher: "Spotify",
      audio: [],
    });
  });
  await t.step("with the embed page's answer", () => {
    check("spotify", "https://open.spotify.com/episode/64TORH3xleuD1wcnFsrH1E", {
      title: "Embed title",
      author: "Embed Artist",
      date: "2020-01-06T14:00:00.000Z",
      audio: ["https://p.scdn.example/clip.mp3"],
      image: ["https://i.scdn.example/cover-640.jpg"],
    }, {
      title: "Embed title",
      author: "Embed Artist",
      date: "2020-01-06T14:00:00Z",
      audio: { src: "https://p.scdn.example/clip.mp3", type: "audio/mpeg" },
      image: "https://i.scdn.example/cover-640.jpg",
    });
  });
});

Deno.test("soundcloud: uploader and description as the page shows them", () => {
  check("soundcloud", "https://soundcloud.com/artist/a-track", {
    author: "Beat Maker",
    description: "Made in a garage.",
    publisher: "SoundCloud",
  });
});

Deno.test("amazon: product title, byline, high-resolution image, store language", () => {
  check("amazon", "https://www.amazon.de/dp/B0057OC5O8", {
    title: "Four-Channel Relay Module",
    author: "Visit the Example Store",
    publisher: "Amazon",
    lang: "de",
    image: [
      "https://m.media-amazon.example/I/relay._SL1200_.jpg",
      "https://m.media-amazon.example/I/relay._SX300_.jpg",
    ],
  });
});

Deno.test("reddit: the <title> and meta description are the post's own", () => {
  check("reddit", "https://www.reddit.com/r/examples/comments/abc123/my_first_build/", {
    title: "My first build : r/examples",
    description: "Here is how the build went, step by step.",
    publisher: "Reddit",
    image: ["https://share.redd.it/preview/post/abc123"],
  });
});

Deno.test("bluesky: the author's own thread image, not a reply's", () => {
  check("bluesky", "https://bsky.app/profile/birds.bsky.social/post/3abc", {
    image: [
      "https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:birds/owl@jpeg",
      "https://cdn.bsky.app/img/avatar/plain/did:plc:birds/avatar@jpeg",
    ],
    author: "Bird Watcher",
    publisher: "Bluesky",
  });
});

Deno.test("telegram: channel as author and logo; date and image only from the widget", async (t) => {
  await t.step("from the page alone", () => {
    check("telegram", "https://t.me/dealschannel/42", {
      author: "Deals Channel",
      logo: ["https://cdn4.cdn-telegram.example/file/channel-picture.jpg"],
      publisher: "Telegram",
      date: null,
    });
  });
  await t.step("with the widget's answer", () => {
    check("telegram", "https://t.me/dealschannel/42", {
      date: "2021-10-02T20:46:20.000Z",
      image: ["https://cdn4.cdn-telegram.example/file/lamp.jpg"],
    }, {
      date: "2021-10-02T20:46:20+00:00",
      image: "https://cdn4.cdn-telegram.example/file/lamp.jpg",
    });
  });
});

Deno.test("dribbble: name and bio from the meta description", () => {
  check("dribbble", "https://dribbble.com/studioexample", {
    author: "Studio Example",
    description: "We design calm products.",
    publisher: "Dribbble",
  });
});

Deno.test("imdb: JSON-LD name, director and release date (older than the web)", () => {
  check("imdb", "https://www.imdb.com/title/tt0000001/", {
    title: "An Old Film",
    author: "Jo Director",
    description: "An Old Film: Directed by Jo Director. A day off, well spent.",
    date: "1986-06-11T00:00:00.000Z",
    publisher: "IMDb",
  });
});

Deno.test("uol: JSON-LD before og: values cut at an unescaped quote", () => {
  check("uol", "https://entretenimento.uol.com.br/noticias/2019/05/27/cantor.html", {
    title: "Cantor do hit “Exemplo” lança álbum",
    description: "Cantor famoso pelo hit “Exemplo” lança seu primeiro álbum.",
  });
});

Deno.test("a page on another host gets none of these rules", () => {
  const got = extract(page("x_post"), "https://example.com/adaexample/status/1");
  assert.equal(got.publisher, "X (formerly Twitter)");
  assert.equal(got.author, null);
});
