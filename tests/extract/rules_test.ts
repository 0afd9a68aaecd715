/** Every rule family on small hand-written pages (tests/fixtures/pages) with known answers. */
import assert from "node:assert/strict";
import { extract, type Extracted } from "../../lib/extract/mod.ts";

const page = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/pages/${name}.html`, import.meta.url));

function check(got: Extracted, want: Partial<Extracted>): void {
  for (const [key, value] of Object.entries(want)) {
    assert.deepEqual(got[key as keyof Extracted], value, `field ${key}`);
  }
}

Deno.test("extract() reads Open Graph first and resolves against <base href>", () => {
  check(extract(page("og"), "https://example.com/2019/01/02/page"), {
    title: "It\u2019s the \u201cOG\u201d title",
    description: "The OG description\u2026",
    author: "Jane Doe",
    publisher: "Example Site",
    // modified beats published; the +02:00 offset is applied
    date: "2021-03-04T03:06:07.000Z",
    lang: "pt",
    url: "https://example.com/canonical",
    // secure_url first; protocol-relative takes the page's https; base href /assets/
    image: ["https://cdn.example.com/cover-secure.jpg", "https://example.com/assets/img/cover.jpg"],
    logo: ["https://example.com/brand/logo.png"],
    oembed: "https://example.com/oembed?url=x",
  });
});

Deno.test("extract() falls back to twitter: cards", () => {
  check(extract(page("twitter"), "https://example.org/page"), {
    title: "Twitter only title",
    description: "Twitter description",
    author: "jdoe",
    url: "https://example.org/t",
    image: ["https://img.example.org/t.png"],
    // twitter:player:stream counts as video by its declared content type
    video: ["https://media.example.org/clip"],
    audio: [],
    date: null,
    publisher: null,
  });
});

Deno.test("extract() follows JSON-LD @graph and @id references", async (t) => {
  await t.step("graph members, referenced author/publisher, square logo", () => {
    check(extract(page("jsonld_graph"), "https://news.example.com/a"), {
      title: "Graph headline & more",
      description: "Graph description",
      author: "Marie Curie",
      publisher: "Graph News",
      date: "2019-05-06T07:08:09.000Z",
      lang: "fr",
      image: ["https://news.example.com/lead.jpg"],
      logo: ["https://news.example.com/logo-512.png"],
    });
  });
  await t.step("top-level arrays, several authors, epoch dates, inline publisher", () => {
    check(extract(page("jsonld_authors"), "https://example.com/x"), {
      title: "Two authors",
      author: "Ann Lee and Bo Chan",
      publisher: "Inline Publisher",
      date: "2017-06-10T00:00:00.000Z",
    });
  });
});

Deno.test("extract() reads microdata itemprops", () => {
  check(extract(page("microdata"), "http://micro.example.com/post/1"), {
    title: "Microdata headline",
    description: "Microdata description",
    author: "Ada Lovelace",
    date: "2018-12-10T00:00:00.000Z",
    lang: "de",
    logo: ["http://micro.example.com/pics/micro-logo.png"],
  });
  assert.equal(
    extract(page("microdata"), "http://micro.example.com/post/1").image[0],
    "http://micro.example.com/pics/micro.png",
  );
});

Deno.test("extract() reads Dublin Core", () => {
  check(extract(page("dublin_core"), "https://dc.example.com/"), {
    title: "Dublin Core title",
    description: "Dublin Core description",
    author: "Grace Hopper",
    publisher: "DC Press",
    date: "2016-07-08T00:00:00.000Z",
    lang: "es",
  });
});

Deno.test("extract() uses plain HTML: <title>, canonical, rel=author, <time>, icons", () => {
  check(extract(page("plain"), "https://plain.example.com/2014/02/03/story?x=1"), {
    // the site name is cut from <title>
    title: "The plain story",
    // a dateline prefix is dropped
    description: "A plain description",
    author: "Alan Turing",
    publisher: "Plain Site",
    // <time datetime> wins over the date in the URL
    date: "2015-10-21T23:29:00.000Z",
    lang: "pt",
    url: "https://plain.example.com/news/plain-story",
    image: ["https://plain.example.com/img/inline.jpg"],
    // square icons by size and format; colours and guessed /favicon.ico are never logos
    logo: [
      "https://plain.example.com/favicon-196x196.png",
      "https://plain.example.com/apple-touch-icon.png",
      "https://plain.example.com/favicon-16x16.png",
      "https://plain.example.com/favicon.ico",
    ],
  });
});

Deno.test("extract() falls back carefully: headings, author classes, dates, paragraphs", () => {
  check(extract(page("fallbacks"), "https://fb.example.com/blog/"), {
    title: "Fallback headline",
    description:
      "The paragraph that a careful fallback picks as the description, since nothing else says what the page is about.",
    author: "Linus Torvalds",
    date: "2014-03-05T00:00:00.000Z",
    image: ["https://fb.example.com/blog/article.jpg"],
    lang: null,
    publisher: null,
    logo: [],
  });
});

Deno.test("extract() finds audio and video in og:, <audio>, <video>, <source> and links", () => {
  check(extract(page("media"), "http://media.example.net/show/1"), {
    image: ["http://media.example.net/poster.jpg"],
    audio: [
      "https://media.example.net/show.mp3",
      "http://media.example.net/show.mp3",
      // no extension, but <source type="audio/mpeg">
      "http://media.example.net/audio/stream",
      "http://media.example.net/downloads/episode.m4a",
    ],
    // og:video of type text/html is a player page, not a video
    video: [
      "https://media.example.net/clip.mp4",
      "http://media.example.net/video/clip.webm",
      "http://media.example.net/video/clip.mp4",
    ],
  });
});

Deno.test("extract() takes a date from the URL when the page has none", () => {
  assert.equal(
    extract("<html><title>x</title></html>", "https://x.example.com/2017/06/29/story").date,
    "2017-06-29T00:00:00.000Z",
  );
  assert.equal(extract("<p>no date</p>", "https://x.example.com/about").date, null);
});

Deno.test("extract() never fails on hostile input", () => {
  const html = `<html lang="zz-top"><meta property="og:image" content="javascript:alert(1)">
    <meta property="og:url" content="mailto:a@b.c"><script type="application/ld+json">{"author":
    {"@id":"#loop"},"@id":"#loop"}</script><link rel="icon" href="data:image/png;base64,AAAA">
    <time datetime="not a date">yesterday</time><div class="author"><div class="author">`;
  check(extract(html, "https://h.example.com/p"), {
    lang: null,
    image: [],
    logo: [],
    url: "https://h.example.com/p",
    date: null,
    author: null,
  });
});
