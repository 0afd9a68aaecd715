/**
 * Microlink's conversion views through @microlink/mql: `data.<x>.attr=markdown` without a
 * selector converts the whole page and, with `meta` on (its default), opens with YAML front
 * matter; `frontmatter=true` offers the same block for `markdown=true`.
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import { parse as parseYaml } from "yaml";
import { html, serve, testConfig } from "../_fixtures.ts";
import { serveLinkpeek } from "../ops/_listen.ts";
import type { Any } from "./_mql.ts";

/**
 * A title YAML would misread unquoted: a colon, quotes (the title field makes them typographic;
 * the unit tests of yamlString cover straight ones and newlines), a hash, dashes.
 */
const TITLE = `Rust: a "safe" language — 'why' --- #1 & more`;
const WORDS = Array.from({ length: 450 }, (_, i) => `word${i}`).join(" ");

const PAGE = `<!doctype html><html lang="en"><head>
<title>${TITLE.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}</title>
<meta name="description" content="A page: converted whole.">
<meta name="author" content="Ada Lovelace">
<meta property="og:site_name" content="The Example Times">
<meta property="article:published_time" content="2024-03-05T10:00:00Z">
</head><body>
<nav><a href="/">Home</a></nav>
<main><h1>Heading</h1><p>${WORDS}</p><p>See <a href="/docs">the docs</a>.</p></main>
<footer>Footer text</footer>
</body></html>`;

/** The front matter block and the body after it. */
function split(markdown: string): { meta: Any; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n/.exec(markdown);
  assert.ok(match, `no front matter in ${JSON.stringify(markdown.slice(0, 200))}`);
  return { meta: parseYaml(match[1]!), body: markdown.slice(match[0].length) };
}

Deno.test("Microlink's whole-page conversion views through @microlink/mql", async (t) => {
  await using site = serve({ "/page": () => html(PAGE) });
  const config = testConfig({ trustPorts: [site.port] });
  const resolver = (host: string) => Promise.resolve(host === "target.test" ? ["127.0.0.1"] : []);
  await using app = await serveLinkpeek(config, { hooks: { resolver } });
  const endpoint = `${app.origin}/`;
  const pageUrl = `http://target.test:${site.port}/page`;

  const plain: Any = await mql(pageUrl, {
    endpoint,
    data: { content: { attr: "markdown" } },
    meta: false,
  });
  const body = plain.data.content as string;

  await t.step("meta=false: the whole page as Markdown, no front matter", () => {
    assert.ok(body.startsWith("[Home](http://target.test:"), body.slice(0, 80));
    assert.match(body, /^# Heading$/m);
    assert.match(body, /See \[the docs\]\(http:\/\/target\.test:\d+\/docs\)\./);
    assert.match(body, /Footer text$/);
  });

  await t.step("meta on (the default): YAML front matter, then the same body", async () => {
    const result: Any = await mql(pageUrl, { endpoint, data: { content: { attr: "markdown" } } });
    const { meta, body: after } = split(result.data.content);
    assert.equal(after, body);
    assert.ok(result.data.title.startsWith("Rust: a “safe” language"), result.data.title);
    assert.deepEqual(meta, {
      title: result.data.title,
      description: "A page: converted whole.",
      author: "Ada Lovelace",
      publisher: "The Example Times",
      date: "2024-03-05T10:00:00.000Z",
      url: pageUrl,
      // 450 words, "Home", "Heading", "See the docs", "Footer text".
      word_count: 457,
      reading_time: 3,
    });
  });

  await t.step("meta naming fields: the block keeps those (and the counts)", async () => {
    const result: Any = await mql(pageUrl, {
      endpoint,
      data: { content: { attr: "markdown" } },
      meta: { title: true },
    });
    assert.deepEqual(split(result.data.content).meta, {
      title: result.data.title,
      word_count: 457,
      reading_time: 3,
    });
  });

  await t.step("a selector scopes the rule: no front matter, as on Microlink", async () => {
    const result: Any = await mql(pageUrl, {
      endpoint,
      data: { content: { selector: "main", attr: "markdown" } },
    });
    assert.ok(result.data.content.startsWith("# Heading"), result.data.content.slice(0, 40));
  });

  await t.step("embed=markdown answers the converted page as text/markdown", async () => {
    const response: Any = await mql.buffer(pageUrl, {
      endpoint,
      data: { markdown: { attr: "markdown" } },
      embed: "markdown",
    });
    assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8");
    const { meta, body: after } = split(new TextDecoder().decode(response.body));
    assert.equal(after, body);
    assert.equal(meta.word_count, 457);
  });

  await t.step("text and html without selector: the whole page, no front matter", async () => {
    const result: Any = await mql(pageUrl, {
      endpoint,
      data: { text: { attr: "text" }, html: { attr: "html" } },
    });
    assert.ok(result.data.text.startsWith("Home Heading word0 "), result.data.text);
    assert.ok(result.data.text.endsWith("See the docs. Footer text"), result.data.text);
    assert.match(result.data.html, /^<!doctype html><html lang="en"><head>/i);
  });

  // linkpeek's own view (not a Microlink parameter): asked over plain HTTP.
  const markdownView = async (query: string) => {
    const response = await fetch(`${endpoint}?url=${encodeURIComponent(pageUrl)}&${query}`);
    return (await response.json()).data.markdown as string;
  };
  await t.step("frontmatter=true opens markdown=true's view with the same block", async () => {
    const { meta, body: main } = split(await markdownView("markdown=true&frontmatter=true"));
    assert.match(meta.title, /^Rust: a “safe” language — ‘why’ --- #1 & more$/);
    assert.equal(meta.publisher, "The Example Times");
    assert.ok(main.startsWith("# Heading"), main.slice(0, 40));
    assert.equal(meta.word_count, 454);
    assert.equal(await markdownView("markdown=true"), main);
  });
});
