import assert from "node:assert/strict";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { extractMainContent } from "../../lib/extract/content/mod.ts";
import { renderPlainText } from "../../lib/extract/content/plain_text.ts";
import { isChromeText } from "../../lib/extract/content/boilerplate.ts";

/** The main content of `page` as plain text: the path of the service's text=true. */
const mainText = (page: string) => renderPlainText(extractMainContent(parseHtml(page)));

const PROSE = "A sentence of the post long enough to count, with commas, clauses, and words. ";

Deno.test("a thread's replies in a list apart from the first post are joined, bodies only", () => {
  const header = (who: string) =>
    `<div class="Item-Header"><a class="Username" href="/u/${who}">${who}</a>
    <span class="Rank">Level 3</span><time>March 2025</time></div>`;
  const reply = (n: number) =>
    `<li class="Item ItemComment">${header(`user${n}`)}<div class="Item-Body">
    <div class="Message userContent"><p>Reply ${n}: I agree, and thanks for the news.</p></div>
    <div class="Reactions"><a href="/quote/${n}">Quote</a> <a href="/vote/${n}">Vote</a></div>
    </div><div class="Signature">My bike: a red one</div></li>`;
  const page = `<html><head><title>A thread</title></head><body>
    <nav><a href="/">Forum</a> <a href="/c">Categories</a></nav><main class="Content">
    <div class="MessageList Discussion"><h1>A thread</h1><div class="Item ItemDiscussion">
    ${header("starter")}<div class="Item-Body"><div class="Message userContent">
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(3)}</p></div></div>
    </div></div><div class="CommentsWrap"><h2>Comments</h2>
    <ul class="MessageList Comments">${[1, 2, 3].map(reply).join("")}</ul></div></main>
    <aside class="Panel"><h3>Recent</h3><p>${PROSE}</p></aside></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  for (const n of [1, 2, 3]) assert.match(text, new RegExp(`Reply ${n}: I agree`));
  for (const chrome of ["Level 3", "Quote", "Vote", "My bike", "Categories", "Recent"]) {
    assert.ok(!text.includes(chrome), `${chrome} kept:\n${text}`);
  }
});

Deno.test("a story's teasers marked as its body is are not joined as replies", () => {
  const teaser = (n: number) =>
    `<article class="card"><div class="pre"><div class="content"><div class="title">
    <a href="/s${n}">Story ${n}</a></div><div class="body">Teaser ${n}: the opening words of
    another story, cut off after a few lines of its text...</div></div></div></article>`;
  const page = `<html><head><title>A story</title></head><body><main>
    <article class="card"><div class="pre"><div class="content"><h1>A story</h1>
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(3)}</p></div></div>
    </article>${[1, 2, 3].map(teaser).join("")}</main></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  assert.ok(!text.includes("Teaser"), text);
});

Deno.test("the headings and lists between an article's joined parts are kept with them", () => {
  const page = `<html><head><title>Guide</title></head><body><nav><a href="/">Docs</a></nav>
    <div class="doc"><p>This guide covers installing and using the tool.</p>
    <h2>Installing the tool</h2><div><p>${PROSE.repeat(4)}</p>
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p></div><h2>Using the tool</h2>
    <ul><li>Open a shell.</li><li>Run the tool.</li></ul>
    <div><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(3)}</p></div></div>
    <footer>Imprint</footer></body></html>`;
  const text = mainText(page);
  for (
    const kept of ["This guide covers", "Installing the tool", "Using the tool", "Run the tool"]
  ) {
    assert.ok(text.includes(kept), `${kept} missing:\n${text}`);
  }
  assert.ok(!text.includes("Imprint") && !text.includes("Docs"), text);
});

Deno.test("a dateline with a publication word of another language goes", () => {
  const page = `<html><head><title>Story</title></head><body><article><h1>Story</h1>
    <p>Aktualizacja: 05.05.2021, 05:53</p><p>Publikacja: 04.05.2021</p>
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p></article></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  assert.ok(!text.includes("Publikacja") && !text.includes("Aktualizacja"), text);
});

Deno.test("the line under the headline showing the page's stated description is the lead", () => {
  const description = "Drives of twenty terabytes are near, and the path looks clear to eighty.";
  const page = `<html><head><title>Drives</title>
    <meta name="description" content="${description}"></head><body><main>
    <header class="hero"><h1>Drives</h1><p class="font-brand">${description}</p>
    </header><div class="article-body"><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p>
    </div><aside><p class="font-brand">A sidebar line that is no description at all here.</p>
    </aside></main></body></html>`;
  const text = mainText(page);
  assert.ok(text.startsWith(description), text);
  assert.ok(!text.includes("sidebar line"), text);
});

Deno.test("a poster's panel lines beside a post go: when they joined, online or not", () => {
  const post = (n: number) =>
    `<div class="blockpost"><dl class="postleft"><dt><strong>user${n}</strong></dt>
    <dd><span>Registered: 2024-01-27</span></dd><dd><span>Offline</span></dd></dl>
    <div class="postmsg"><p>Post ${n}: ${PROSE.repeat(3)}</p></div></div>`;
  const page = `<html><head><title>A thread</title></head><body><div id="content">
    ${[1, 2, 3].map(post).join("")}</div></body></html>`;
  const text = mainText(page);
  for (const n of [1, 2, 3]) assert.match(text, new RegExp(`Post ${n}: A sentence`));
  assert.ok(!text.includes("Registered") && !text.includes("Offline"), text);
});

Deno.test("the plain text leaves out footnote reference numbers, not other numbered links", () => {
  const doc = parseHtml(
    `<div><p>It had a structure.<sup><a href="#fn1">1</a></sup> The tool<a
    href="https://example.invalid/p#footnote-10-182">[10]</a> helps; see <a href="#sec2">2</a>
    and page <a href="/p/3">3</a>.</p><ol class="footnotes"><li id="fn1">A note.</li></ol></div>`,
  );
  assert.equal(
    renderPlainText(doc),
    "It had a structure. The tool helps; see 2 and page 3.\nA note.",
  );
});

Deno.test("a list whose items say something beside their links stays; a link list goes", () => {
  const hotel = (n: number) =>
    `<li><strong>Official website</strong>: <a href="/h${n}">The Grand Hotel of the Old Town</a>
    </li><li>This hotel features in my lists of the <a href="/l${n}">best luxury hotels in the
    whole of the city and the most stunning pools</a></li><li>Read my review of this property
    <a href="/r${n}">here, at the review page of the hotel</a></li>`;
  const links = [1, 2, 3, 4].map((n) => `<li><a href="/s${n}">Other story ${n}</a></li>`);
  const page = `<html><head><title>Hotels</title></head><body><article><h1>Hotels</h1>
    <p>${PROSE.repeat(4)}</p><ul>${hotel(1)}</ul><p>${PROSE.repeat(4)}</p><ul>${hotel(2)}</ul>
    <p>${PROSE.repeat(3)}</p><ul>${links.join("")}</ul></article></body></html>`;
  const text = mainText(page);
  assert.match(text, /Read my review of this property here, at the review page/);
  assert.match(text, /This hotel features in my lists/);
  assert.ok(!text.includes("Other story"), text);
});

Deno.test("a block named for similar stories is chrome, as one named related is", () => {
  const teaser = (n: number) =>
    `<li><div class="text"><h3>Another story ${n}</h3><p>The opening of another story on the site,
    long enough to read as a paragraph of its own, and dated the week before this one.</p></div>
    </li>`;
  const page = `<html><head><title>Story</title></head><body><main><section class="content">
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p>
    <p>${PROSE.repeat(4)}</p><ul class="timeline similar">${[1, 2, 3].map(teaser).join("")}</ul>
    </section></main></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  assert.ok(!text.includes("Another story"), text);
});

Deno.test("a parent whose text beside the joined parts is mostly links is not taken whole", () => {
  const page = `<html><head><title>Story</title></head><body><div class="wrap">
    <div><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p></div>
    <h3><a href="/s1">Other story one</a></h3><h3><a href="/s2">Other story two</a></h3>
    <div><p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(3)}</p></div></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  assert.ok(!text.includes("Other story"), text);
});

Deno.test("a manual's page navigation bars (navheader, navfooter) are chrome", () => {
  const bar = (cls: string) =>
    `<div class="${cls}"><table><tr><th colspan="3">Chapter 11. Indexes</th></tr><tr>
    <td><a href="/p">Prev</a></td><td><a href="/u">Up</a></td><td><a href="/n">Next</a></td>
    </tr><tr><td>10.6. The Output Columns of a Select</td><td><a href="/">Home</a></td>
    <td>11.1. An Introduction to Indexes</td></tr></table><hr></div>`;
  const page = `<html><head><title>Indexes</title></head><body><div class="chapter">
    ${bar("navheader")}<h2>Chapter 11. Indexes</h2><p>${PROSE.repeat(4)}</p>
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p>${bar("navfooter")}</div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  for (const chrome of ["Prev", "Home", "Output Columns"]) {
    assert.ok(!text.includes(chrome), `${chrome} kept:\n${text}`);
  }
});

Deno.test("a recipe's ingredients stay beside the servings field that Readability drops", () => {
  const items = ["Vanilla pudding powder", "Sugar", "Milk", "Cherries", "Butter", "Flour"]
    .map((name, i) => `<li><span>${i + 1} cups</span> <span>${name}</span></li>`).join("");
  const page = `<html><head><title>Cake</title></head><body><article><h1>Cake</h1>
    <p>${PROSE.repeat(3)}</p><h2>Ingredients</h2><section class="ingredients">
    <form><span>For <input type="hidden" value="15"><input type="text" value="15"> pieces</span>
    </form><ul>${items}</ul></section><h2>Steps</h2><p>${PROSE.repeat(4)}</p>
    <p>${PROSE.repeat(4)}</p></article></body></html>`;
  const text = mainText(page);
  assert.match(text, /Vanilla pudding powder/);
  assert.match(text, /Butter/);
});

Deno.test("a post's permalink and report lines read as chrome, a sentence about posts not", () => {
  const lines = ["Link to post", "Link to this comment", "Report post", "Quote this post"];
  for (
    const line of [...lines, "Improve this answer", "Follow this question", "Replies", "Views"]
  ) {
    assert.ok(isChromeText(line), line);
  }
  assert.ok(!isChromeText("Link to post offices in the county, listed by town"));
});

Deno.test("a board's rules box and clock under a thread read as chrome", () => {
  const lines = [
    "You may not post new threads",
    "You may not edit your posts",
    "BB code is On",
    "[IMG] code is On",
    "HTML code is Off",
    "Posting Rules",
    "All times are GMT +1. The time now is 14:01.",
    "« Previous Thread | Next Thread »",
    "#1 | Link",
  ];
  for (const line of lines) assert.ok(isChromeText(line), line);
  assert.ok(!isChromeText("You may post your comments on the draft until Friday, the agency said"));
});

Deno.test("a short post named as content is not given up for a long sidebar", () => {
  const item = (n: number) =>
    `<li><p>Item ${n} of the sidebar: a news snippet from elsewhere, long enough to score, with
    commas, clauses, and words, and then some more words to make it longer still.</p></li>`;
  const page = `<html><head><title>Leo</title></head><body><div id="wrapper">
    <div id="content"><div class="post" id="post-613"><h2>Number two: Leo</h2>
    <p>It has been some time since Henry was born, number one. A few days ago Leo made it too,
    number two.</p><p>This is how it looked when Henry first saw the newcomer, and sniffed.</p>
    </div></div><div id="sidebar"><ul>${[1, 2, 3, 4, 5, 6, 7, 8].map(item).join("")}</ul>
    </div></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /Leo made it too/);
  assert.ok(!text.includes("of the sidebar"), text);
});

Deno.test("a line of links set apart by bars is a menu; a line of words with bars is not", () => {
  const menu = ["About Us", "Privacy Policy", "Help", "Site Map"]
    .map((name, i) => `<a href="/m${i}">${name}</a>`).join(" | ");
  const page = `<html><head><title>Therapist</title></head><body><div class="profile">
    <p>${
    PROSE.repeat(4)
  }</p><p><a href="/s">New Search</a> | <a href="/back">Back To Results</a></p>
    <p>${PROSE.repeat(4)}</p><p>Hours: Monday to Friday | Saturday by appointment</p>
    <p>${menu}</p></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /Monday to Friday \| Saturday by appointment/);
  assert.ok(!text.includes("Privacy Policy") && !text.includes("Back To Results"), text);
});

Deno.test("chrome written as one word with its owner (globalfooter, topnav) is chrome", () => {
  const page = `<html><head><title>Story</title></head><body><main><div class="story">
    <p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p><p>${PROSE.repeat(4)}</p>
    <div class="ac-globalfooter"><p>Legal line of the site's footer, with terms of use.</p></div>
    <div class="site-topnav"><p>Menu line of the site's navigation, with its sections.</p></div>
    </div></main></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the post/);
  assert.ok(!text.includes("Legal line") && !text.includes("Menu line"), text);
});

Deno.test("a reply quoting an earlier post in full drops the quote, not its own words", () => {
  const first = "I am in the market for a camera for portraits and cityscapes, and I would " +
    "like some advice before I buy one of the two models I have in mind.";
  const second = "The main difference between the two cameras is how they focus, which you " +
    "do not mention in your post at all, so start there.";
  const reply = "Decide first how you want to photograph, then the rest follows from that, " +
    "including which of the two cameras suits you.";
  const post = (body: string) =>
    `<article class="message"><div class="message-body">${body}</div></article>`;
  const page = `<html><head><title>Which camera?</title></head><body><main><h1>Which camera?</h1>
    ${post(`<p>${first}</p>`)}${post(`<p>${second}</p>`)}
    ${post(`<blockquote><div>Joe said:</div><p>${first}</p></blockquote><p>${reply}</p>`)}
    ${
    post(
      `<blockquote><div>Ann said:</div><p>${second}</p><p>${
        reply.replace("Decide", "Choose")
      } And something Ann added in the quote that is new here, long enough to count.</p>
    </blockquote><p>Agreed with that.</p>`,
    )
  }
    </main></body></html>`;
  const text = mainText(page);
  assert.equal(text.split(first).length - 1, 1, text);
  assert.ok(!text.includes("Joe said:"), text);
  assert.match(text, /Decide first how you want/);
  // Partly new: only its repeated line goes.
  assert.equal(text.split(second).length - 1, 1, text);
  assert.match(text, /Ann said:[^]*Choose first how you want/);
});
