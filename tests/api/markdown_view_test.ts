/**
 * markdown=true through the service on loopback pages: the constructs a reader and a language
 * model want (code languages, content images only, footnotes, figures, tables, clean links),
 * the title as the first heading, and a hostile nesting depth answered, not crashed on.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

const PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";

const ARTICLE = `<!doctype html><html lang="en"><head><title>Field notes: caching</title></head>
<body><nav><a href="/">Home</a></nav>
<article>
  <p class="kicker">Systems</p>
  <h2>Why caches work</h2>
  <p>Most reads hit a few keys<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup>,
    as <a href="/papers/zipf?utm_source=feed&amp;id=7&amp;fbclid=abc">the Zipf paper</a> shows.
    <img src="https://stats.track.test/pixel.gif?u=1" width="1" height="1" alt="">
    <a href="#top">Back to top</a></p>
  <figure>
    <img src="${PIXEL}" data-src="/img/diagram.png" data-srcset="/img/diagram-800.png 800w, /img/diagram-1600.png 1600w" alt="Read-through cache">
    <figcaption>A read-through cache.</figcaption>
  </figure>
  <div class="highlight highlight-source-python"><pre>cache = {}<br>def get(k):<br>    return cache.get(k)</pre></div>
  <table>
    <thead><tr><th>Tier</th><th>Latency</th></tr></thead>
    <tbody><tr><td>L1</td><td><p>1 ns</p></td></tr><tr><td>RAM</td><td>100 ns</td></tr></tbody>
  </table>
  <p>Long enough text to be the article, with commas, clauses, and more words, so it wins.</p>
  <div class="footnotes"><ol><li id="fn:1"><p>Zipf's law. <a href="#fnref:1" class="reversefootnote">↩</a></p></li></ol></div>
</article>
<footer>© Example</footer></body></html>`;

Deno.test("markdown=true writes what a reader and a language model want", async () => {
  await using site = serve({ "/article": () => html(ARTICLE) });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { status, body } = await app.json(q(`${site.origin}/article`, "&ping=false&markdown"));
  assert.equal(status, 200);
  const origin = site.origin;
  assert.equal(
    body.data.markdown,
    [
      "# Field notes: caching",
      "Systems",
      "## Why caches work",
      `Most reads hit a few keys[^1], as [the Zipf paper](${origin}/papers/zipf?id=7) shows. Back to top`,
      `![Read-through cache](${origin}/img/diagram-1600.png)`,
      "A read-through cache.",
      "```python\ncache = {}\ndef get(k):\n    return cache.get(k)\n```",
      "| Tier | Latency |\n| --- | --- |\n| L1 | 1 ns |\n| RAM | 100 ns |",
      "Long enough text to be the article, with commas, clauses, and more words, so it wins.",
      "[^1]: Zipf's law.",
    ].join("\n\n"),
  );
});

Deno.test("markdown=true answers a page of 10,000 nested lists", async () => {
  // Lists directly inside lists (no <li>): each level once recursed without a depth guard.
  const lists = "<ul><li>a</li>" + "<ul>".repeat(10_000) + "</ul>".repeat(10_001);
  await using site = serve({
    "/deep": () => html(`<title>Deep</title><body><p>Start of the page.</p>${lists}</body>`),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const deep = await app.json(q(`${site.origin}/deep`, "&ping=false&markdown&meta=false"));
  assert.equal(deep.status, 200, JSON.stringify(deep.body).slice(0, 300));
  assert.match(deep.body.data.markdown, /^# Deep\n\nStart of the page\./);
});
