/**
 * YouTube video targets: the caption transcript as the Markdown body (Microlink's url-to-markdown
 * behaviour). The watch page and YouTube's timedtext answers come from one loopback TLS server
 * that the injected resolver and connector map www.youtube.com onto; nothing leaves the machine.
 */
import assert from "node:assert/strict";
import { buildPayload } from "../../lib/api/payload.ts";
import { validateRules } from "../../lib/extract/custom/mod.ts";
import {
  captionTracks,
  paragraphsOf,
  parseTimedText,
  pickTrack,
} from "../../lib/extract/platforms/youtube_captions.ts";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { parseParams } from "../../lib/params/mod.ts";
import { createServices } from "../../lib/services/mod.ts";
import { loopbackConnector, PUBLIC_IP, serve, tableResolver, testConfig } from "../_fixtures.ts";
import { certsFor } from "./_certs.ts";

const fixture = (name: string) =>
  Deno.readTextFileSync(
    new URL(`../fixtures/pages/platforms/youtube_captions/${name}`, import.meta.url),
  );
const WATCH = fixture("watch.html");
const VIDEO = "https://www.youtube.com/watch?v=tY2M2g-tG1Q";

Deno.test("caption tracks: the creator's, in the spoken language, from YouTube hosts only", () => {
  const tracks = captionTracks(WATCH);
  assert.deepEqual(tracks.map((t) => [t.lang, t.automatic]), [
    ["en", true],
    ["de", false],
    ["en", false],
  ]);
  const picked = pickTrack(tracks)!;
  assert.equal(new URL(picked.url).searchParams.get("lang"), "en");
  assert.equal(picked.automatic, false);
  // Only automatic captions: those; none at all: null.
  assert.equal(pickTrack(tracks.filter((t) => t.automatic))?.automatic, true);
  assert.equal(pickTrack([]), null);
  // A track pointing anywhere but YouTube's timedtext is not one.
  const foreign = WATCH.replaceAll(
    "https://www.youtube.com/api/timedtext",
    "https://evil.invalid/x",
  );
  assert.deepEqual(captionTracks(foreign), []);
  assert.deepEqual(captionTracks('"captionTracks":[{"baseUrl":"/api/timedtext?v=1"'), []);
});

Deno.test("timedtext: both of YouTube's formats, entities decoded, paragraphs at pauses", () => {
  const cues = parseTimedText(fixture("timedtext_en.xml"));
  assert.equal(cues.length, 5);
  assert.equal(cues[2]!.text, 'and it decides for how long with "max-age" & friends.');
  assert.equal(cues[4]!.text, "It's served while a fresh one is fetched in the background.");
  // the 3.7 s pause before "Second part" starts a paragraph
  const paragraphs = paragraphsOf(cues);
  assert.equal(paragraphs.length, 2);
  assert.match(paragraphs[1]!, /^Second part: what happens/);

  const format3 = '<timedtext format="3"><body><p t="1200" d="800"><s>Bonjour</s><s> à</s>' +
    '<s t="400"> tous</s></p><p t="5000" d="1000">Deuxième &amp; fin</p></body></timedtext>';
  assert.deepEqual(parseTimedText(format3), [
    { start: 1.2, end: 2, text: "Bonjour à tous" },
    { start: 5, end: 6, text: "Deuxième & fin" },
  ]);
});

Deno.test("hostile caption answers are read in one bounded pass", () => {
  // Unclosed cue tags, tag soup and an endless track list: nothing is read, nothing hangs.
  assert.deepEqual(parseTimedText("<text start='1'>".repeat(200_000)), []);
  const soup = parseTimedText(`<text start="1">${"<".repeat(500_000)}</text>`);
  assert.equal(soup.length, 1);
  assert.equal(soup[0]!.text.length, 500_000);
  assert.deepEqual(captionTracks(`"captionTracks":[${'["'.repeat(300_000)}`), []);
  const many = `<transcript>${'<text start="1" dur="1">a</text>'.repeat(60_000)}</transcript>`;
  assert.equal(parseTimedText(many).length, 50_000);
});

/** www.youtube.com on a loopback TLS server: the watch page, a captionless video, timedtext. */
async function youtubeServer() {
  const { ca, cert, key } = await certsFor(["www.youtube.com"]);
  const timedtext: string[] = [];
  const server = serve((request) => {
    const url = new URL(request.url);
    const html = (body: string) =>
      new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
    if (url.pathname === "/watch" && url.searchParams.get("v") === "tY2M2g-tG1Q") {
      return html(WATCH);
    }
    if (url.pathname === "/watch" && url.searchParams.get("v") === "noCaptions1") {
      return html(
        WATCH.replace(/"captions":\{.*?\}\},"microformat"/, '"microformat"')
          .replaceAll("Caching at the Edge, Explained", "A Silent Film"),
      );
    }
    if (url.pathname === "/api/timedtext") {
      timedtext.push(url.search);
      const name = url.searchParams.get("kind") === "asr"
        ? "timedtext_asr_en.xml"
        : "timedtext_en.xml";
      return new Response(fixture(name), {
        headers: { "content-type": "text/xml; charset=UTF-8" },
      });
    }
    return new Response("not found", { status: 404 });
  }, { cert, key });
  const resolver = tableResolver({ "www.youtube.com": [PUBLIC_IP] });
  const connector = loopbackConnector({ [PUBLIC_IP]: server.port });
  return {
    ca,
    timedtext,
    resolver,
    connector,
    [Symbol.asyncDispose]: () => server[Symbol.asyncDispose](),
  };
}

Deno.test("a YouTube video reads as its caption transcript", async (t) => {
  await using site = await youtubeServer();
  const config = testConfig();
  const network = { resolver: site.resolver, connector: site.connector };
  const services = await createServices(config, network);
  services.fetcher = new GuardedFetcher({ config, network, ca: [site.ca] });
  const run = async (url: string, query: string) => {
    const params = parseParams(
      new URLSearchParams(`url=${encodeURIComponent(url)}&ping=false${query}`),
      {
        maxTimeoutMs: 30_000,
      },
    );
    const { payload, fetchMode } = await buildPayload({
      params,
      target: new URL(url),
      services,
      signal: new AbortController().signal,
      credentialed: false,
      rules: params.data === null ? null : validateRules(params.data),
    });
    return { data: payload.data, fetchMode };
  };
  try {
    await t.step("markdown=true: the title, then the creator's English captions", async () => {
      const { data, fetchMode } = await run(VIDEO, "&markdown=true");
      assert.equal(fetchMode, "fetch");
      assert.equal(
        data.markdown,
        "# Caching at the Edge, Explained\n\n" +
          "Hello and welcome. Today we look at caching at the edge. A CDN keeps a copy of your " +
          'page close to the reader, and it decides for how long with "max-age" & friends.\n\n' +
          "Second part: what happens when the copy is stale? It's served while a fresh one is " +
          "fetched in the background.",
      );
      // the default fields still come from the watch page
      assert.equal(data.title, "Caching at the Edge, Explained");
      assert.equal(data.author, "Edge Example");
      assert.equal(data.date, "2024-03-05T16:00:12.000Z");
      assert.equal(site.timedtext.length, 1);
      assert.equal(new URLSearchParams(site.timedtext[0]).get("lang"), "en");
      assert.equal(new URLSearchParams(site.timedtext[0]).get("kind"), null);
    });
    await t.step("Microlink's data.transcript.attr=markdown reads the same, cached", async () => {
      const { data } = await run(
        `https://youtu.be/tY2M2g-tG1Q`.replace("youtu.be/", "www.youtube.com/watch?v="),
        "&meta=false&data.transcript.attr=markdown&data.summary.selector=meta[name=description]" +
          "&data.summary.attr=content",
      );
      assert.match(String(data.transcript), /Hello and welcome\. Today we look at caching/);
      assert.doesNotMatch(String(data.transcript), /Top comments|Subscriptions/);
      // the watch page's <head> stays selectable
      assert.equal(data.summary, "How a CDN decides what to keep, and for how long.");
      assert.equal(site.timedtext.length, 1, "the transcript came from the cache");
    });
    await t.step("a video without captions: its metadata, no transcript body", async () => {
      const { data } = await run("https://www.youtube.com/watch?v=noCaptions1", "&markdown=true");
      assert.equal(data.title, "A Silent Film");
      assert.equal(data.markdown, "# A Silent Film");
      assert.equal(site.timedtext.length, 1);
    });
  } finally {
    await services.close();
  }
});
