import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { DomHandler } from "domhandler";
import { getOuterHTML } from "domutils";
import { LinearParser, parseDocument } from "../../lib/extract/stream/html_parser.ts";

const OPTIONS = { lowerCaseAttributeNames: true, lowerCaseTags: true };

/**
 * Every event a Parser emits, in order, as text. Adjacent texts are one: the stock Parser
 * reports a decoded entity as a text of its own, which a DOM joins to its neighbours.
 */
function events(P: typeof Parser, html: string): string[] {
  const seen: string[] = [];
  let text: string | null = null;
  const flush = () => {
    if (text !== null) seen.push(`"${text}"`);
    text = null;
  };
  new P({
    onopentag: (name, attribs, implied) => {
      flush();
      seen.push(`<${name} ${JSON.stringify(attribs)} ${implied}`);
    },
    onclosetag: (name, implied) => {
      flush();
      seen.push(`</${name} ${implied}`);
    },
    ontext: (data) => text = (text ?? "") + data,
    oncomment: (data) => {
      flush();
      seen.push(`<!--${data}`);
    },
    onprocessinginstruction: (name, data) => {
      flush();
      seen.push(`<?${name} ${data}`);
    },
  }, OPTIONS).end(html);
  flush();
  return seen;
}

function stockDom(html: string): string {
  const handler = new DomHandler();
  new Parser(handler, OPTIONS).end(html);
  return getOuterHTML(handler.root.children);
}

const PAGES = [
  // implied closes: p by block, li by li, td/tr, option, dd/dt
  "<p>one<div>two</div><p>three<p>four</p></p>",
  "<ul><li>a<li>b<ul><li>c</ul><li>d</ul>",
  "<table><tr><td>1<td>2<tr><td>3</table>",
  "<select><option>a<option>b<optgroup><option>c</select>",
  "<dl><dt>t<dd>d<dt>u</dl>",
  // stray and misnested end tags
  "<b><i>x</b>y</i></p></br></x><p>z",
  "</div></span>text<span>a</span></span>",
  // a second form is ignored, as the spec says
  "<form id=1><form id=2><input></form></form>",
  // foreign content: svg and math keep case and self-closing
  '<svg viewBox="0 0 1 1"><foreignObject><p>html<svg><circle/></svg></foreignObject><path/></svg>',
  "<math><mi>x</mi><annotation-xml><b>b</b></annotation-xml></math><p>after",
  "<svg><clipPath><rect/></clipPath></svg><svg><foreignObject></foreignObject></svg>",
  // void elements, comments, processing instructions, unclosed tags at the end
  "<br><img src=a><hr/><input type=text><!-- c --><?xml v?><div><span><em>open",
  // entities: the tokenizer skips through text undecoded, the Parser decodes (ScanningTokenizer)
  "<p>a &amp; b &lt;c&gt; &notit; &notin; &amp &ampx AT&T &#169; &#x1F600; &#0; &#xD800;" +
  " &#x110000; &#128; &#; &#x; &unknown; &</p>",
  "<a href=\"?a=1&amp;b=2&copy=3&lang=en&not\" title='&quot;x&quot' data-x=&amp;y&gt>t</a>",
  "<title>a &amp; b</title><textarea>&lt;b&gt;</textarea><script>if (a &amp;&amp; b) {}</script>",
  "<style>a::after{content:'&amp;'}</style><xmp>&amp;</xmp><iframe>&amp;</iframe>",
  "<noembed>&amp;</noembed><noframes>&amp;</noframes><noscript>&amp;</noscript>",
  "<svg><title>&amp;</title><style>&lt;</style></svg><p>&amp;<script/>&amp;</p>",
  "<scripty>&amp;</scripty><titles>&lt;</titles><p>x&amp;<b>y&amp;</b>&amp;z",
  "<plaintext>&amp; <b>not a tag</b>",
];

Deno.test("LinearParser emits exactly the events of htmlparser2's Parser", async (t) => {
  const fixtures: string[] = [];
  for (const dir of ["pages", "markdown"]) {
    for await (const entry of Deno.readDir(new URL(`../fixtures/${dir}/`, import.meta.url))) {
      if (entry.name.endsWith(".html")) {
        fixtures.push(
          await Deno.readTextFile(new URL(`../fixtures/${dir}/${entry.name}`, import.meta.url)),
        );
      }
    }
  }
  // Deeper than the point where names start being counted, with stray end tags down there.
  const deep = "<div><i>".repeat(300) + "</x></b>text</i>" + "</div>".repeat(200) +
    "<p>" + "<span>".repeat(400) + "</p></span>";
  for (const [i, html] of [...PAGES, ...fixtures, deep].entries()) {
    await t.step(`document ${i}`, () => {
      assert.deepEqual(events(LinearParser, html), events(Parser, html));
      assert.equal(getOuterHTML(parseDocument(html, OPTIONS).children), stockDom(html));
    });
  }
});

Deno.test("LinearParser reads deep nesting and stray end tags in one pass", () => {
  // 200,000 unclosed elements, then as many end tags that match nothing: the stock Parser
  // moves the whole stack for each element and scans it for each end tag.
  const depth = 200_000;
  const html = "<i>".repeat(depth) + "</x>".repeat(depth);
  let opened = 0;
  let closed = 0;
  new LinearParser({
    onopentag: () => opened++,
    onclosetag: () => closed++,
  }, OPTIONS).end(html);
  assert.deepEqual([opened, closed], [depth, depth]);
});

Deno.test("an end tag of another heading level closes the open heading, as browsers do", () => {
  // htmlparser2 ignores `</h3>` here and the heading swallows the rest of the page; HTML's
  // rule for h1-h6 (and every browser) closes the open h2.
  const html = '<h2 class="excerpt">The lead</h3><div><p>The body</p></div>';
  assert.equal(
    getOuterHTML(parseDocument(html, OPTIONS).children),
    '<h2 class="excerpt">The lead</h2><div><p>The body</p></div>',
  );
  // Its own end tag, and one met inside an inline element of the heading, read as before.
  for (const same of ["<h2>a</h2>b", "<h2><span>a</h3>b</span></h2>c"]) {
    assert.equal(getOuterHTML(parseDocument(same, OPTIONS).children), stockDom(same));
  }
});
