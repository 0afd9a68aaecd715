import assert from "node:assert/strict";
import { renderMarkdown } from "../../lib/extract/content/markdown_render.ts";
import { documentToMarkdown } from "../../lib/extract/content/markdown.ts";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { largestCandidate } from "../../lib/extract/content/markdown_image.ts";
import { withoutTracking } from "../../lib/extract/content/markdown_links.ts";

const BASE = "https://ex.test/a/";
const md = (html: string, clean = false) =>
  renderMarkdown(parseHtml(html), { baseUrl: BASE, clean }).markdown;

Deno.test("code blocks carry the language every common highlighter names", async (t) => {
  const cases: [string, string][] = [
    ['<pre><code class="language-ts">x</code></pre>', "ts"],
    ['<pre class="lang-py"><code>x</code></pre>', "py"],
    ['<pre><code class="hljs language-rust">x</code></pre>', "rust"],
    ['<div class="highlight highlight-source-python"><pre>x</pre></div>', "python"],
    [
      '<div class="language-ruby highlighter-rouge"><div class="highlight"><pre class="highlight"><code>x</code></pre></div></div>',
      "ruby",
    ],
    [
      '<div class="sourceCode"><pre class="sourceCode haskell"><code>x</code></pre></div>',
      "haskell",
    ],
    ['<pre class="brush: js; notranslate">x</pre>', "js"],
    ['<pre><code data-lang="Go">x</code></pre>', "go"],
    ['<pre data-language="sql">x</pre>', "sql"],
    // A wrapper's `lang-en` names the language of people, not of the code.
    ['<div class="lang-en"><pre>x</pre></div>', ""],
    ['<pre class="highlight"><code class="nohighlight">x</code></pre>', ""],
  ];
  for (const [html, lang] of cases) {
    await t.step(html, () => assert.equal(md(html), "```" + lang + "\nx\n```"));
  }
  await t.step("<br> and per-line elements keep the code's lines; gutters go", () => {
    assert.equal(md("<pre>a<br>b<br/>c</pre>"), "```\na\nb\nc\n```");
    assert.equal(
      md('<pre><code><div class="line">one</div><div class="line">two</div></code></pre>'),
      "```\none\ntwo\n```",
    );
    assert.equal(
      md('<pre><span class="line-numbers-rows"><span></span></span><code>1\n2</code></pre>'),
      "```\n1\n2\n```",
    );
  });
  await t.step("backticks in the code lengthen the fence", () => {
    assert.equal(md("<pre>a ```b``` c</pre>"), "````\na ```b``` c\n````");
  });
});

Deno.test("images are written only when they are content", async (t) => {
  await t.step("a content image, its alt escaped, its URL absolute", () => {
    assert.equal(
      md('<p><img src="p.png" alt="a [b]"></p>'),
      "![a \\[b\\]](https://ex.test/a/p.png)",
    );
  });
  await t.step("tracking pixels, spacers, icons and avatars are dropped", () => {
    const junk = [
      '<img src="/t.gif" width="1" height="1" alt="">',
      '<img src="/t.gif" style="width:1px;height:1px">',
      '<img src="/img/spacer.gif" alt="">',
      '<img src="https://stats.ex.test/pixel?id=1">',
      '<img src="/i/rss.png" width="16" height="16" alt="RSS">',
      '<img src="/me.jpg" class="avatar avatar-48">',
      '<img src="/x.svg" class="icon-search">',
      '<img src="/deco.png" role="presentation">',
    ];
    for (const img of junk) assert.equal(md(`<p>a ${img} b</p>`), "a b", img);
  });
  await t.step("emoji images read as their character", () => {
    assert.equal(md('<p>yes <img class="emoji" alt="🎉" src="/e/1f389.png"></p>'), "yes 🎉");
  });
  await t.step("lazy images: the real source, not the placeholder", () => {
    const placeholder = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
    assert.equal(
      md(`<img src="${placeholder}" data-src="/real.jpg" alt="r">`),
      "![r](https://ex.test/real.jpg)",
    );
    assert.equal(
      md('<img src="/lazy-placeholder.png" data-srcset="/s.jpg 300w, /l.jpg 1200w" alt="r">'),
      "![r](https://ex.test/l.jpg)",
    );
    assert.equal(
      md('<picture><source srcset="/a.webp 1x, /b.webp 2x"><img alt="p"></picture>'),
      "![p](https://ex.test/b.webp)",
    );
    assert.equal(md(`<img src="${placeholder}" alt="only a placeholder">`), "");
  });
  await t.step("srcset: the widest or densest candidate; commas inside URLs kept", () => {
    assert.equal(largestCandidate("a.jpg 1x, b.jpg 2x"), "b.jpg");
    assert.equal(largestCandidate("a.jpg 100w,b.jpg 800w, c.jpg 400w"), "b.jpg");
    assert.equal(
      largestCandidate(
        "https://c.test/w_100,h_100/a.jpg 100w, https://c.test/w_900,h_900/b.jpg 900w",
      ),
      "https://c.test/w_900,h_900/b.jpg",
    );
    assert.equal(largestCandidate("a.jpg, b.jpg"), "a.jpg");
    assert.equal(largestCandidate(" , "), null);
  });
});

Deno.test("links: absolute, without tracking, never empty", async (t) => {
  await t.step("utm_* and click ids go; other parameters keep their order", () => {
    assert.equal(
      md('<a href="/p?id=3&utm_source=x&UTM_Medium=y&fbclid=z&b=2#s">t</a>'),
      "[t](https://ex.test/p?id=3&b=2#s)",
    );
    assert.equal(withoutTracking("https://ex.test/?utm_source=a&gclid=b"), "https://ex.test/");
    assert.equal(withoutTracking("https://ex.test/?q=utm_source"), "https://ex.test/?q=utm_source");
  });
  await t.step("jumps to nothing rendered and scripts read as text; empty links vanish", () => {
    assert.equal(
      md(
        '<p><a href="#top">Back to top</a> <a href="javascript:go()">Go</a> <a href="#">x</a></p>',
      ),
      "Back to top Go x",
    );
    assert.equal(
      md('<p>a <a href="/x"></a><a href="/y"><img src="/t.gif" width="1"></a> b</p>'),
      "a b",
    );
  });
});

Deno.test("link titles cannot end their quotes early", () => {
  assert.equal(
    md(String.raw`<a href="/x" title='say "hi" \'>t</a><a href="/y" title="  ">u</a>`),
    String.raw`[t](https://ex.test/x "say \"hi\" \\")[u](https://ex.test/y)`,
  );
});

Deno.test("an in-page link to a part that is rendered stays a link, made absolute", () => {
  assert.equal(
    md(
      '<p>See <a href="#setup">setup</a>.</p><h2 id="setup">Setup</h2><a name="n"></a><a href="#n">n</a>',
    ),
    "See [setup](https://ex.test/a/#setup).\n\n## Setup\n\n[n](https://ex.test/a/#n)",
  );
});

Deno.test("footnotes become GFM footnotes", async (t) => {
  await t.step("Markdown processors' .footnotes with back-links", () => {
    const html = `<p>Claim<sup id="fnref:1"><a href="#fn:1" class="footnote-ref">1</a></sup>
      and another<sup id="fnref:2"><a href="#fn:2" class="footnote-ref">2</a></sup>.</p>
      <div class="footnotes" role="doc-endnotes"><hr><ol>
      <li id="fn:1"><p>The source. <a href="#fnref:1" class="reversefootnote">↩</a></p></li>
      <li id="fn:2"><p>Second <a href="https://ex.test/src">source</a>.&nbsp;<a href="#fnref:2">↩︎</a></p></li>
      </ol></div>`;
    assert.equal(
      md(html),
      [
        "Claim[^1] and another[^2].",
        "---",
        "[^1]: The source.\n[^2]: Second [source](https://ex.test/src).",
      ].join("\n\n"),
    );
  });
  await t.step("Wikipedia's references, Pandoc's endnotes", () => {
    const wiki = `<p>Fact.<sup class="reference"><a href="#cite_note-2">[2]</a></sup></p>
      <ol class="references"><li id="cite_note-1">One.</li><li id="cite_note-2"><span
      class="mw-cite-backlink"><a href="#cite_ref-2">^</a></span> Two.</li></ol>`;
    assert.equal(md(wiki), "Fact.[^2]\n\n[^1]: One.\n[^2]: Two.");
    const pandoc =
      `<p>Text<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a></p>
      <section class="footnotes" role="doc-endnotes"><ol><li id="fn1" role="doc-endnote"><p>Note.<a
      href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol></section>`;
    assert.equal(md(pandoc), "Text[^1]\n\n[^1]: Note.");
    const stray =
      '<p>x<a href="#fn1">1</a></p><ol class="footnotes"><div>ad</div><li id="fn1">N.</li></ol>';
    assert.equal(md(stray), "x[^1]\n\n[^1]: N.");
  });
  await t.step("notes the view drops (an <aside> in main-content mode) are not cited", () => {
    const html =
      '<p>Claim<a href="#fn1">1</a></p><aside><ol class="footnotes"><li id="fn1">N.</li></ol></aside>';
    assert.equal(md(html, true), "Claim1");
    assert.equal(md(html), "Claim[^1]\n\n[^1]: N.");
  });
  await t.step("an ordinary list of items with ids stays a list", () => {
    assert.equal(md('<ul><li id="a">one</li><li id="b">two</li></ul>'), "- one\n- two");
  });
});

Deno.test("figures keep their caption, and lose it with their content", () => {
  assert.equal(
    md('<figure><img src="/d.png" alt="Diagram"><figcaption>How it works.</figcaption></figure>'),
    "![Diagram](https://ex.test/d.png)\n\nHow it works.",
  );
  assert.equal(
    md(
      '<figure><img src="/t.gif" width="1" height="1"><figcaption>Photo: agency</figcaption></figure>',
    ),
    "",
  );
});

Deno.test("tables: header row, spans laid out, complex ones as blocks", async (t) => {
  await t.step("the <thead> row is the header, wherever it is written", () => {
    assert.equal(
      md(
        "<table><tbody><tr><td>1</td><td>2</td></tr></tbody><thead><tr><th>A</th><th>B</th></tr></thead></table>",
      ),
      "| A | B |\n| --- | --- |\n| 1 | 2 |",
    );
  });
  await t.step("rowspan keeps the columns below aligned", () => {
    assert.equal(
      md(`<table><tr><th>Day</th><th>Slot</th><th>Talk</th></tr>
        <tr><td rowspan="2">Mon</td><td>9:00</td><td>Intro</td></tr>
        <tr><td>10:00</td><td>Deep dive</td></tr></table>`),
      "| Day | Slot | Talk |\n| --- | --- | --- |\n| Mon | 9:00 | Intro |\n|  | 10:00 | Deep dive |",
    );
  });
  await t.step("paragraphs in cells are joined; pipes escaped", () => {
    assert.equal(
      md(
        "<table><tr><th>k</th><th>v</th></tr><tr><td><p>a</p><p>b|c</p></td><td>d<br>e</td></tr></table>",
      ),
      "| k | v |\n| --- | --- |\n| a b\\|c | d e |",
    );
  });
  await t.step("lists or tables inside cells: read as blocks", () => {
    assert.equal(
      md(
        "<table><tr><td>x</td><td><ul><li>i</li></ul></td></tr><tr><td>y</td><td>z</td></tr></table>",
      ),
      "x\n\n- i\n\ny\n\nz",
    );
  });
});

Deno.test("escaping: headings, entities, line starts", () => {
  assert.equal(md("<h2>Issue #</h2>"), "## Issue \\#");
  assert.equal(md("<h2>C#</h2>"), "## C#");
  assert.equal(md("<p>&amp;copy; is an entity</p>"), "\\&copy; is an entity");
  assert.equal(md("<p>+ plus</p><p>1) one</p>"), "\\+ plus\n\n1\\) one");
});

Deno.test("nesting 10,000 deep renders (text kept) without exhausting the stack", async (t) => {
  const deep = (open: string, close: string) =>
    "<body>" + open.repeat(10_000) + "deep text" + close.repeat(10_000) + "</body>";
  const shapes: [string, string][] = [
    ["<ul>", "</ul>"],
    ["<ul><li>", "</li></ul>"],
    ["<ol><li><p>", "</p></li></ol>"],
    ["<blockquote>", "</blockquote>"],
    ["<div>", "</div>"],
    ["<table><tr><td>", "</td></tr></table>"],
    ["<figure>", "</figure>"],
    ["<b>", "</b>"],
    ["<a href=x>", "</a>"],
  ];
  for (const [open, close] of shapes) {
    await t.step(open, () => {
      const out = renderMarkdown(parseHtml(deep(open, close)), { baseUrl: BASE, clean: true });
      assert.ok(typeof out.markdown === "string");
      if (open !== "<ul>") assert.match(out.markdown, /deep text/);
    });
  }
});

Deno.test("the first heading's level is reported (the title rule reads it)", () => {
  const first = (html: string) => renderMarkdown(parseHtml(html), { baseUrl: BASE }).firstHeading;
  assert.equal(first("<h2>a</h2><h1>b</h1>"), 2);
  assert.equal(first("<p>x</p><h1>b</h1>"), 1);
  assert.equal(first("<p>x</p>"), 0);
});

Deno.test("the page title is the first heading of the markdown view, once", async (t) => {
  const view = (html: string) => documentToMarkdown(parseHtml(html), BASE);
  const body = "<p>A paragraph long enough to be content, with a comma, or two, in it.</p>";
  await t.step("added above a first heading that is not an h1", () => {
    assert.match(
      view(`<title>Page</title><article><h2>Part</h2>${body}<h1>Later</h1></article>`),
      /^# Page\n\n## Part/,
    );
  });
  await t.step("not added when the first heading is an h1", () => {
    assert.match(view(`<title>Page</title><article><h1>Story</h1>${body}</article>`), /^# Story\n/);
  });
  await t.step("not repeated when the first heading is the title", () => {
    assert.match(view(`<title>Page</title><article><h2>page</h2>${body}</article>`), /^## page\n/);
  });
  await t.step("escaped as a heading: a closing # run stays text", () => {
    assert.match(view(`<title>Issue #</title><article>${body}</article>`), /^# Issue \\#\n/);
  });
});
