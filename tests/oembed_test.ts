import assert from "node:assert/strict";
import { GuardedFetcher } from "../lib/fetch/mod.ts";
import {
  embedHtml,
  fetchIframe,
  MAX_OEMBED_BYTES,
  splitScripts,
  withSize,
} from "../lib/oembed/mod.ts";
import { extract } from "../lib/extract/mod.ts";
import { serve, testConfig } from "./_fixtures.ts";

const RICH = {
  type: "rich",
  version: "1.0",
  html: '<blockquote class="post"><p>Hello &amp; welcome</p></blockquote>\n' +
    '<script async src="//platform.provider.test/widgets.js" charset="utf-8"></script>',
};

/** A loopback oEmbed provider answering by path; trusted through TRUSTED_TARGETS. */
function provider() {
  return serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/rich") return Response.json(RICH);
    if (path === "/photo") {
      return Response.json({
        type: "photo",
        url: "https://img.provider.test/p.jpg",
        width: 640,
        height: 480,
        title: 'A "quoted" <title>',
      });
    }
    if (path === "/slow") {
      // Answers after the test has aborted; the timer is cleared when the server shuts down.
      return new Promise<Response>((resolve) =>
        setTimeout(() => resolve(Response.json(RICH)), 300)
      );
    }
    if (path === "/link") return Response.json({ type: "link", title: "no embed" });
    if (path === "/html") return new Response("<html>not json</html>");
    if (path === "/missing") return Response.json({ error: "nope" }, { status: 404 });
    if (path === "/huge") {
      return Response.json({ type: "rich", html: "x".repeat(MAX_OEMBED_BYTES + 10) });
    }
    return new Response("unknown", { status: 500 });
  });
}

Deno.test("fetchIframe() reads a loopback provider through the guarded fetcher", async (t) => {
  await using site = provider();
  const config = testConfig({ trustPorts: [site.port] });
  const fetcher = new GuardedFetcher({ config });

  await t.step("rich: html with its <script src> split out, size passed on", async () => {
    const iframe = await fetchIframe(`${site.origin}/rich?url=https%3A%2F%2Fex.test%2Fa`, {
      fetcher,
      maxWidth: 480,
      maxHeight: 270,
      headers: { "user-agent": "linkpeek-test" },
    });
    assert.deepEqual(iframe, {
      html: '<blockquote class="post"><p>Hello &amp; welcome</p></blockquote>',
      // Microlink's shape: the element's attributes, as its card SDK reads them
      scripts: [{ src: "http://platform.provider.test/widgets.js", async: true, charset: "utf-8" }],
    });
    const seen = site.last!;
    assert.equal(seen.target, "/rich?url=https%3A%2F%2Fex.test%2Fa&maxwidth=480&maxheight=270");
    assert.equal(seen.headers["accept"], "application/json");
    assert.equal(seen.headers["user-agent"], "linkpeek-test");
  });

  await t.step("photo: an <img> is built, attributes escaped", async () => {
    const iframe = await fetchIframe(`${site.origin}/photo`, { fetcher });
    assert.deepEqual(iframe, {
      html: '<img src="https://img.provider.test/p.jpg" width="640" height="480" ' +
        'alt="A &quot;quoted&quot; &lt;title&gt;">',
      scripts: [],
    });
  });

  await t.step("no embed, not JSON, an error status or an oversized answer: null", async () => {
    for (const path of ["/link", "/html", "/missing", "/huge", "/other"]) {
      assert.equal(await fetchIframe(`${site.origin}${path}`, { fetcher }), null, path);
    }
  });

  await t.step("a signal aborted before or during the fetch: null, not a throw", async () => {
    const before = new AbortController();
    before.abort();
    assert.equal(
      await fetchIframe(`${site.origin}/rich`, { fetcher, signal: before.signal }),
      null,
    );
    const during = new AbortController();
    const hits = site.hits;
    const pending = fetchIframe(`${site.origin}/slow`, { fetcher, signal: during.signal });
    setTimeout(() => during.abort(), 50);
    assert.equal(await pending, null);
    assert.equal(site.hits, hits + 1);
  });

  await t.step("a non-http URL or junk: null", async () => {
    assert.equal(await fetchIframe("file:///etc/passwd", { fetcher }), null);
    assert.equal(await fetchIframe("not a url", { fetcher }), null);
  });
});

Deno.test("fetchIframe() drops a provider on a forbidden address and never reaches it", async () => {
  await using trusted = provider();
  await using canary = provider();
  // Only the first server is trusted: the canary is loopback like it, and must stay silent.
  const config = testConfig({ trustPorts: [trusted.port] });
  const fetcher = new GuardedFetcher({ config });
  assert.equal(await fetchIframe(`${canary.origin}/rich`, { fetcher }), null);
  assert.equal(
    await fetchIframe(`http://[::ffff:127.0.0.1]:${canary.port}/rich`, { fetcher }),
    null,
  );
  assert.equal(canary.hits, 0);
  // The same fetcher still reaches the trusted one, so the null above was the guard.
  assert.notEqual(await fetchIframe(`${trusted.origin}/rich`, { fetcher }), null);
  assert.equal(trusted.hits, 1);
});

/** The oEmbed endpoint the page names, as the pipeline finds it. */
const oembedOf = (html: string, url: string) => extract(html, url).oembed;

Deno.test("extract() discovers the JSON oEmbed link", async (t) => {
  await t.step("resolves against <base href>, decodes entities", () => {
    const html = `<html><head><base href="https://cdn.ex.test/b/">
      <link rel="alternate" type="application/xml+oembed" href="/xml">
      <link rel="alternate" type="Application/JSON+oEmbed" href="/oembed?url=a&amp;format=json">
      </head><body></body></html>`;
    assert.equal(
      oembedOf(html, "https://ex.test/p"),
      "https://cdn.ex.test/oembed?url=a&format=json",
    );
  });
  await t.step("a link in the body still counts; relative to the page", () => {
    const html = `<body><p>x</p><link type="application/json+oembed" href="o.json"></body>`;
    assert.equal(oembedOf(html, "https://ex.test/a/p"), "https://ex.test/a/o.json");
  });
  await t.step("none, or a non-http href: null", () => {
    assert.equal(
      oembedOf("<html><head><title>x</title></head></html>", "https://ex.test/"),
      null,
    );
    const js = `<link type="application/json+oembed" href="javascript:alert(1)">`;
    assert.equal(oembedOf(js, "https://ex.test/"), null);
  });
});

Deno.test("withSize() sets maxwidth and maxheight, replacing given ones", () => {
  assert.equal(
    withSize("https://p.test/o?url=x&maxwidth=9", { maxWidth: 400, maxHeight: 300 }),
    "https://p.test/o?url=x&maxwidth=400&maxheight=300",
  );
  assert.equal(withSize("https://p.test/o?url=x", {}), "https://p.test/o?url=x");
});

Deno.test("embedHtml() takes html, builds photos, rejects the rest", () => {
  assert.equal(
    embedHtml({ type: "video", html: " <iframe src=x></iframe> " }),
    "<iframe src=x></iframe>",
  );
  assert.equal(embedHtml({ type: "photo", url: "javascript:alert(1)" }), null);
  assert.equal(embedHtml({ type: "link" }), null);
  assert.equal(embedHtml("string"), null);
  assert.equal(embedHtml(null), null);
});

Deno.test("splitScripts() keeps inline scripts and dedupes sources", () => {
  const html =
    '<div>a</div><script async src="/w.js" charset="utf-8"></script><script>go()</script>' +
    '<SCRIPT SRC="https://p.test/w.js"></SCRIPT><script src="https://q.test/x.js"></script>';
  assert.deepEqual(splitScripts(html, "https://p.test/oembed"), {
    html: "<div>a</div><script>go()</script>",
    scripts: [
      { src: "https://p.test/w.js", async: true, charset: "utf-8" },
      { src: "https://q.test/x.js" },
    ],
  });
});
