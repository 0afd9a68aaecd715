import assert from "node:assert/strict";
import { documentToMarkdown, nodeToMarkdown } from "../../lib/extract/content/markdown.ts";
import { baseUrl, parseHtml, select } from "../../lib/extract/dom/mod.ts";

/** The markdown view of a page, parsed the way the pipeline parses it once for every step. */
const toMarkdown = (html: string, url: string) => documentToMarkdown(parseHtml(html), url);

const FIXTURES = new URL("../fixtures/markdown/", import.meta.url);

/** A fixture file without its first-line `deno-fmt-ignore-file` comment (fixtures are exact). */
function fixture(name: string): string {
  const text = Deno.readTextFileSync(new URL(name, FIXTURES));
  return text.replace(/^<!-- deno-fmt-ignore-file -->\n/, "");
}

Deno.test("toMarkdown() matches the checked-in fixtures", async (t) => {
  await t.step("article.html: every construct, chrome dropped", () => {
    const md = toMarkdown(
      fixture("article.html"),
      "https://journal.example/posts/2024/caches.html",
    );
    assert.equal(md + "\n", fixture("article.md"));
  });
  await t.step("blog.html: no markup for content, found by paragraphs, title line added", () => {
    const md = toMarkdown(
      fixture("blog.html"),
      "https://tinkerer.example/log/2024/05/station.html",
    );
    assert.equal(md + "\n", fixture("blog.md"));
  });
});

Deno.test("toMarkdown() picks the main content", async (t) => {
  const para = "A sentence long enough to count as content, with a comma or two, in it.";
  await t.step("<main> when several <article> cards share the page", () => {
    const cards = ["One", "Two", "Three"].map((n) =>
      `<article><h2>${n}</h2><p>${para}</p></article>`
    );
    const html = `<title>Blog</title><nav><p>${para}</p></nav><main>${cards.join("")}</main>`;
    const md = toMarkdown(html, "https://ex.test/");
    assert.equal(
      md,
      ["# Blog", "## One", para, "## Two", para, "## Three", para].join("\n\n"),
    );
  });
  await t.step("role=main; nav, aside, footer and forms inside it are dropped", () => {
    const html = `<div role="main"><h1>Doc</h1><nav>Prev | Next</nav><p>${para}</p>
      <aside>Ad</aside><form><label>Name</label><input></form><footer>fin</footer></div>`;
    assert.equal(toMarkdown(html, "https://ex.test/"), `# Doc\n\n${para}`);
  });
  await t.step("the title falls back to og:title, and is escaped", () => {
    const html = `<head><meta property="og:title" content="Use *stars* wisely"></head>
      <body><p>${para}</p></body>`;
    assert.equal(toMarkdown(html, "https://ex.test/"), `# Use \\*stars\\* wisely\n\n${para}`);
  });
  await t.step("an empty page is empty", () => {
    assert.equal(toMarkdown("", "https://ex.test/"), "");
    assert.equal(select(parseHtml("<p>x</p>"), "p") !== null, true);
  });
});

Deno.test("nodeToMarkdown() converts inline and block edge cases", async (t) => {
  const md = (html: string) => nodeToMarkdown(parseHtml(html), { baseUrl: "https://ex.test/a/" });
  await t.step("escapes what would read as markup, keeps intraword underscores", () => {
    assert.equal(md("<p># not a heading</p>"), "\\# not a heading");
    assert.equal(md("<p>- not a list</p>"), "\\- not a list");
    assert.equal(md("<p>2024. A year</p>"), "2024\\. A year");
    assert.equal(
      md("<p>snake_case and _under_ [x] &lt;div&gt;</p>"),
      "snake_case and \\_under\\_ \\[x\\] \\<div>",
    );
  });
  await t.step("emphasis keeps spaces outside its markers; empty emphasis vanishes", () => {
    assert.equal(md("<p>a<b> bold </b>b<em></em></p>"), "a **bold** b");
    // Marks around punctuation alone would show as literal asterisks.
    assert.equal(
      md("<p>Jindrák<em>,</em> who<b> — </b>and <i>x</i></p>"),
      "Jindrák, who — and *x*",
    );
    // Emphasis inside its own kind adds no markers (nested they would meet as "****").
    assert.equal(
      md("<p><b>Jane <strong>Roe</strong></b> <i>a <em>b</em> c</i> <b><i>both</i></b></p>"),
      "**Jane Roe** *a b c* ***both***",
    );
    assert.equal(
      md("<dl><dt><strong>Term</strong></dt><dd>its meaning</dd></dl>"),
      "**Term**\n\nits meaning",
    );
    // A definition holding blocks (Sphinx's API docs) keeps them: code stays a code block.
    assert.equal(
      md("<dl><dt>gather(*aws)</dt><dd><p>Run them.</p><pre>await gather(a())</pre></dd></dl>"),
      "**gather(\\*aws)**\n\nRun them.\n\n```\nawait gather(a())\n```",
    );
    // Runs of one emphasis side by side are one; apart by a space, two.
    assert.equal(
      md("<p><b>S</b><b>unshine:</b> <i>a</i><i>b</i> <b>c</b> <b>d</b> <b>e\\</b><b>f</b></p>"),
      "**Sunshine:** *ab* **c** **d** **e\\\\f**",
    );
    // The same in a block's own inline run (a <div> of inline children), and across wrappers.
    assert.equal(md("<div><b>S</b><b>unshine:</b></div>"), "**Sunshine:**");
    assert.equal(
      md("<div><b><font>Agent, REALTOR</font></b><font><strong>®<br>(702)</strong></font></div>"),
      "**Agent, REALTOR®\\\n(702)**",
    );
    // Line breaks at its ends stay outside the markers; those inside are the emphasis's own.
    assert.equal(md("<p><em>Jane Roe,<br>York<br></em></p>"), "*Jane Roe,\\\nYork*");
    assert.equal(md("<p>a<br><b><br>bold</b></p>"), "a\\\n**bold**");
  });
  await t.step("a task list keeps its boxes, as GFM writes them", () => {
    assert.equal(
      md(
        '<ul><li><input type="checkbox" disabled checked> Tests</li>' +
          '<li><input type="checkbox" disabled> Docs<p>later</p></li></ul>',
      ),
      "- [x] Tests\n- [ ] Docs\n\n  later",
    );
  });
  await t.step("a heading's text is written as it reads: no line starts inside it", () => {
    // After "## " nothing starts a line: "1." is no list there, and needs no backslash.
    assert.equal(md("<h2>1. The Old Bridge</h2><p>a</p>"), "## 1. The Old Bridge\n\na");
    assert.equal(md("<h3>- dash &gt; quote</h3>"), "### - dash > quote");
  });
  await t.step("<br><br> sets paragraphs apart; inside emphasis it stays a line break", () => {
    // Text set apart by blank lines drawn with <br> (old CMSs, Blogger) reads as paragraphs.
    assert.equal(md("<div>one<br>two<br><br> <br>three<br><br></div>"), "one\\\ntwo\n\nthree");
    assert.equal(md("<p>a <b>b<br><br>c</b></p>"), "a **b\\\nc**");
    assert.equal(md("<ul><li>a<br><br>b</li></ul>"), "- a\n\n  b");
  });
  await t.step("an ordered list keeps a start Markdown can write, else starts at 1", () => {
    assert.equal(md('<ol start="7"><li>a</li><li>b</li></ol>'), "7. a\n8. b");
    // CommonMark reads 1-9 digits as a list marker: these would be paragraphs of text.
    assert.equal(md('<ol start="99999999999999999999"><li>a</li><li>b</li></ol>'), "1. a\n2. b");
    assert.equal(md('<ol start="-3"><li>a</li></ol>'), "1. a");
    assert.equal(
      md('<ol start="999999999"><li>a</li><li>b</li></ol>'),
      "999999999. a\n999999999. b",
    );
  });
  await t.step("inline code with backticks gets a longer fence", () => {
    assert.equal(md("<p><code>a `b` c</code></p>"), "``a `b` c``");
    assert.equal(md("<p><code>`x</code></p>"), "`` `x ``");
  });
  await t.step("links: absolute, parentheses encoded, empty or javascript: links are text", () => {
    assert.equal(md('<a href="w(1).html">w</a>'), "[w](https://ex.test/a/w%281%29.html)");
    assert.equal(md('<a href="javascript:go()">go</a>'), "go");
    assert.equal(md('<a href="/x"></a>'), "");
    assert.equal(
      md('<a href="/x"><img src="i.png" alt="i"></a>'),
      "[![i](https://ex.test/a/i.png)](https://ex.test/x)",
    );
  });
  await t.step("code block fences outgrow backtick runs inside", () => {
    assert.equal(md("<pre>a\n```\nb</pre>"), "````\na\n```\nb\n````");
  });
  await t.step("loose list items keep paragraphs; lists nested directly in lists", () => {
    assert.equal(
      md("<ul><li><p>one</p><p>more</p></li><li>two</li><ul><li>in</li></ul></ul>"),
      "- one\n\n  more\n- two\n  - in",
    );
  });
  await t.step("nested blockquotes", () => {
    assert.equal(
      md("<blockquote><p>a</p><blockquote>b</blockquote></blockquote>"),
      "> a\n>\n> > b",
    );
  });
  await t.step("tables: colspan filled, short rows padded; layout tables read as blocks", () => {
    assert.equal(
      md("<table><tr><td colspan=2>wide</td></tr><tr><td>a</td></tr></table>"),
      "| wide |  |\n| --- | --- |\n| a |  |",
    );
    assert.equal(
      md("<table><tr><td><p>left</p></td><td><div>right</div></td></tr></table>"),
      "left\n\nright",
    );
  });
  await t.step("deep nesting from broken markup cannot overflow the stack", () => {
    const deep = "<div><b>".repeat(3000) + "end" + "</b></div>".repeat(3000);
    assert.equal(md(deep), "end");
  });
});

// Its speed is bench/markdown_bench.ts's job; this checks that nothing of a 2 MB page is lost.
Deno.test("toMarkdown() converts a 2 MB page whole", () => {
  const html = fixture("article.html");
  const chunk = html.slice(html.indexOf("<h2>Why caches work</h2>"), html.indexOf("<hr>"));
  const big = html.replace("<hr>", chunk.repeat(Math.ceil(2_000_000 / chunk.length)) + "<hr>");
  assert.ok(big.length >= 2_000_000);
  const md = toMarkdown(big, "https://journal.example/x");
  assert.ok(md.length > 1_000_000, `markdown of ${md.length} chars`);
  assert.equal(
    md.split("\n## Why caches work\n").length - 1,
    Math.ceil(2_000_000 / chunk.length) + 1,
  );
});

Deno.test("baseUrl() takes the first <base> with an href, as select('base[href]') does", () => {
  const page = (head: string, body = "") =>
    parseHtml(`<html><head>${head}</head><body><p>x</p>${body}</body></html>`);
  const url = "https://ex.test/dir/page";
  assert.equal(baseUrl(page(""), url), url);
  assert.equal(baseUrl(page('<base target="_top">'), url), url);
  assert.equal(
    baseUrl(page('<base target="_top"><base href="/one/"><base href="/two/">'), url),
    "https://ex.test/one/",
  );
  // Anywhere in the page, in document order; an empty href is still the first with one.
  assert.equal(baseUrl(page("", '<div><base href="/late/"></div>'), url), "https://ex.test/late/");
  assert.equal(baseUrl(page('<base href="">', '<base href="/late/">'), url), url);
  for (const html of ['<base href="/a/"><base href="/b/">', '<base><base href="/c/">']) {
    const doc = page(html, '<base href="/d/">');
    const viaSelector = select(doc, "base[href]")!.attribs.href!;
    assert.equal(baseUrl(doc, url), new URL(viaSelector, url).href);
  }
});

Deno.test("docs: headings lose their permalinks and self-links, code blocks keep their lexer", () => {
  const prose = "A paragraph of the reference, long enough to be the content of the page. ";
  const page = `<html><head><title>Tasks</title></head><body><div class="body" role="main">
    <section id="tasks"><h1>Coroutines and Tasks<a class="headerlink" href="#tasks"
    title="Link to this heading">¶</a></h1><p>${prose.repeat(4)}</p>
    <div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span>import asyncio
asyncio.run(main())</pre></div></div>
    <h2 id="more">More<a class="anchor" href="#more">#</a></h2><p>${prose.repeat(4)}</p>
    <div class="highlight-default notranslate"><div class="highlight"><pre>print(1)</pre></div></div>
    <div class="highlight-box"><pre>not a language</pre></div>
    <h2 id="req"><a class="heading-anchor" href="#req">Making a request</a></h2>
    <p>${prose.repeat(2)}</p>
    <p>See <a href="#tasks">the section above</a> and note <a href="#fn1">1</a>.</p>
    </section></div></body></html>`;
  const markdown = toMarkdown(page, "https://docs.site.test/tasks.html");
  assert.ok(markdown.startsWith("# Coroutines and Tasks\n"), markdown);
  assert.match(markdown, /\n## More\n/);
  assert.ok(!/[¶]|\]\(https:\/\/docs\.site\.test\/tasks\.html#more\)/.test(markdown), markdown);
  assert.match(markdown, /```python3\nimport asyncio\nasyncio\.run\(main\(\)\)\n```/);
  assert.match(markdown, /```\nprint\(1\)\n```/);
  assert.match(markdown, /```\nnot a language\n```/);
  // A heading linking to its own anchor is its text (MDN's headings).
  assert.match(markdown, /\n## Making a request\n/);
  assert.match(markdown, /\[the section above\]\(https:\/\/docs\.site\.test\/tasks\.html#tasks\)/);
});

Deno.test("images without words that are small on one side or named as icons are left out", () => {
  const prose = "A paragraph of the guide, long enough to be the content of the page. ";
  const page = `<html><head><title>Golf</title></head><body><article><h1>Golf</h1>
    <p>${prose.repeat(3)}</p><p><img width="16" src="/graphics/trails/fc-icon.gif">
    <img src="/common/graphics/icons/gclb.gif" alt=""> Fundy course</p>
    <p><img src="/img/icons/club.png" alt="Golf club"> <img width="20" src="/m/x2.png"
    alt="x squared"> <img src="/photos/lexicon-cover.jpg"></p><p>${prose.repeat(3)}</p>
    </article></body></html>`;
  const markdown = toMarkdown(page, "https://golf.test/");
  assert.ok(!/fc-icon|gclb/.test(markdown), markdown);
  assert.match(markdown, /!\[Golf club\]\(https:\/\/golf\.test\/img\/icons\/club\.png\)/);
  assert.match(markdown, /!\[x squared\]\(https:\/\/golf\.test\/m\/x2\.png\)/);
  assert.match(markdown, /!\[\]\(https:\/\/golf\.test\/photos\/lexicon-cover\.jpg\)/);
});
