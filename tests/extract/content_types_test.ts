// Main content of pages that are no article (issue #24): products, collections, listings,
// services. Each test names the pattern a rule reads, on markup written for it.
import assert from "node:assert/strict";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { renderPlainText } from "../../lib/extract/content/plain_text.ts";
import { renderMarkdown } from "../../lib/extract/content/markdown_render.ts";
import { extractMainContent } from "../../lib/extract/content/mod.ts";
import { faqItems, FEATURES, featureSections } from "./_landing_page.ts";

const mainText = (page: string) => renderPlainText(extractMainContent(parseHtml(page)));
const PROSE = "A sentence of the page long enough to count, with commas, clauses, and words. ";
const md = (html: string) =>
  renderMarkdown(parseHtml(html), { baseUrl: "https://ex.test/", clean: false }).markdown;

Deno.test("side-by-side elements start a new word where case changes or a number starts", () => {
  // A specs row and a product card: label and value, brand and name, in sibling <span>s
  // that the page's styles lay apart; a comment between them changes nothing.
  const page =
    '<div class="row"><span>Publisher</span><!--x--><span>Houghton Mifflin</span></div>' +
    '<a href="/p"><span>The North Face</span><span>Wawona 6 Tent</span></a>' +
    "<div><span>Pages</span><span>240</span></div>" +
    // A year, then a running time: two numbers.
    '<div class="meta"><span>1994</span><span>2h 22m</span></div>' +
    // A drop cap, a styled stem and a footnote mark stay glued to their word.
    "<p><span>T</span>he <b>walk</b>ing H<sub>2</sub>O x<sup>2</sup>a<sup>B</sup></p>";
  const text = renderPlainText(parseHtml(page));
  assert.equal(
    text,
    "Publisher Houghton Mifflin\nThe North Face Wawona 6 Tent\nPages 240\n1994 2h 22m\n" +
      "The walking H2O x2aB",
  );
  const markdown = md(page);
  assert.match(markdown, /Publisher Houghton Mifflin/);
  assert.match(markdown, /\[The North Face Wawona 6 Tent\]/);
  assert.match(markdown, /Pages 240/);
  assert.match(markdown, /1994 2h 22m/);
  assert.match(markdown, /The \*\*walk\*\*ing H2O x2aB/);
});

Deno.test("a landing page of headed sections keeps them all, not only its longest (an FAQ)", () => {
  const features = featureSections([...FEATURES, "Support"]);
  const faq = faqItems(8, PROSE.repeat(4));
  const page = `<html><head><title>Apps</title></head><body><header><a href="/">Home</a></header>` +
    `<main>${features}<section><h2>Questions</h2><div class="faq">${faq}</div></section></main>` +
    `</body></html>`;
  const text = mainText(page);
  assert.match(text, /Question number 8 about the service\?/);
  for (const name of ["Fast builds", "Any industry", "Support"]) {
    assert.match(text, new RegExp(name));
  }
});

Deno.test("a document's section known by an anchor id naming chrome words is content", () => {
  const sections = ["filter", "exclude", "select-related", "prefetch-related", "share-lock"]
    .map((id) =>
      `<section id="s-${id}"><h2>${id.replace("-", "_")}()</h2><p>${PROSE.repeat(3)}</p>` +
      `</section>`
    ).join("");
  const page = `<html><head><title>QuerySet API</title></head><body><div class="document">` +
    `<h1>QuerySet API</h1>${sections}</div>` +
    // A block only its id names as chrome, but no document's section: still chrome.
    `<div id="related-posts"><h2>Related</h2><p>${PROSE}</p></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /select_related\(\)\n/);
  assert.match(text, /prefetch_related\(\)\n/);
  assert.match(text, /share_lock\(\)\n/);
  assert.doesNotMatch(text, /Related\n/);
});

Deno.test("a listing's item cards (a picture, a linked name, a blurb) are its content", () => {
  const cards = ["CSS", "HTML", "Design", "Forms"].map((name) =>
    `<div class="card"><img src="/${name}.png" alt=""><h3><a href="/${name}">Learn ${name}: ` +
    `the course</a></h3><div>Every module of ${name}, start to end.</div></div>`
  ).join("");
  const page = (type: string) =>
    `<html><head><meta property="og:type" content="${type}"><title>Learn</title></head>` +
    `<body><main><h1>Learn</h1><p>${PROSE.repeat(12)}</p><div class="grid">${cards}</div>` +
    `</main></body></html>`;
  const text = mainText(page("website"));
  for (const name of ["CSS", "HTML", "Design", "Forms"]) {
    assert.match(text, new RegExp(`Learn ${name}: the course\\nEvery module of ${name}`));
  }
  // Under a story, such cards are other pages' teasers: the story's counts still judge them.
  assert.doesNotMatch(mainText(page("article")), /Learn CSS/);
});

Deno.test("a card's BEM header (card__header) is the card's title, not the page's masthead", () => {
  const cards = ["Trail Tent", "Camp Stove", "Down Quilt"].map((name) =>
    `<div class="product-card"><div class="product-card__header"><h3>${name} 2</h3></div>` +
    `<p class="product-card__body">${name}: ${PROSE}</p></div>`
  ).join("");
  const page = `<html><head><title>Gear</title></head><body>` +
    `<div class="site__header"><a href="/">Gear shop home</a> <span>Free returns</span></div>` +
    `<main><h1>Gear</h1><p>${PROSE.repeat(6)}</p><div class="grid">${cards}</div></main>` +
    `<div class="sidebar-box__header">Sidebar deals today</div></body></html>`;
  const text = mainText(page);
  for (const name of ["Trail Tent", "Camp Stove", "Down Quilt"]) {
    assert.match(text, new RegExp(`${name} 2\\n${name}: A sentence`));
  }
  // The page's own header, and a header of chrome, still go.
  assert.doesNotMatch(text, /Free returns|Sidebar deals/);
});

Deno.test("a row of two pictured item cards is content; two bare columns are not cards", () => {
  const card = (name: string, picture: string) =>
    `<div class="card">${picture}<h3><a href="/${name}">Plan ${name}: the offer</a></h3>` +
    `<div>Everything in ${name}, billed yearly.</div></div>`;
  const page = (picture: string) =>
    `<html><head><title>Plans</title></head><body><main><h1>Plans</h1>` +
    `<p>${PROSE.repeat(12)}</p><div class="row">${card("Basic", picture)}` +
    `${card("Team", picture)}</div></main></body></html>`;
  const text = mainText(page('<img src="/plan.png" alt="">'));
  assert.match(text, /Plan Basic: the offer\nEverything in Basic/);
  assert.match(text, /Plan Team: the offer\nEverything in Team/);
  // Without pictures, two blocks of one class are no evidence of cards: judged as before.
  assert.doesNotMatch(mainText(page("")), /Plan Basic/);
});

Deno.test("a sticky bar or sidebar (named or styled sticky) is no part of the content", () => {
  const page = `<html><head><title>Mug</title></head><body><main><div class="product">` +
    `<h1>White speckle mug</h1><p>${PROSE.repeat(8)}</p>` +
    `<div class="sticky-product-actions"><span>White speckle mug, only $60.00</span>` +
    `<button>Add to cart</button></div>` +
    `<aside class="hidden md:block sticky top-24"><h3>Hot comments</h3>` +
    `<p>Wilson wrote an hour ago: great mugs, buy two of them</p></aside>` +
    `</div></main></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the page/);
  assert.doesNotMatch(text, /only \$60|Hot comments|Wilson wrote/);
});

Deno.test("a segment a page streams in hidden (React's div hidden id=S:n) is content", () => {
  // The frame comes first, each segment after it, with the script that moves it in place.
  const page = `<html><head><title>Laptop</title></head><body><div class="product">` +
    `<h1>Laptop 13</h1><p>${PROSE.repeat(10)}</p><template id="B:0"></template>` +
    `<div hidden id="S:0"><h2>Specifications</h2><p>Processor model: a chip fast enough for ` +
    `every day's work, with sixteen gigabytes of memory and a long battery life.</p></div>` +
    `<script>$RC("B:0","S:0")</script>` +
    `<div hidden id="login"><p>Sign in to see your saved items and your recent orders.</p></div>` +
    `</div></body></html>`;
  const text = mainText(page);
  assert.match(text, /Processor model: a chip/);
  // Any other hidden block stays out.
  assert.doesNotMatch(text, /Sign in to see/);
});

Deno.test("a listing's pinned rows (li or tr named sticky) stay: they are its first items", () => {
  const row = (cls: string, title: string) =>
    `<li class="${cls}"><dl><dt><a href="/t/${title.length}" class="topictitle">${title}</a>` +
    ` by a member of the board, last post today</dt><dd>12 replies, 340 views</dd></dl></li>`;
  const rows = [
    row("row bg1 sticky", "Read the board rules before you post"),
    row("row bg2 sticky", "Where to ask for help with your account"),
    ...["Trail shoes for wet rock", "A tent for two in the rain", "Packing light in winter"]
      .map((title, i) => row(`row bg${1 + i % 2}`, title)),
  ].join("");
  const page = `<html><head><title>Gear talk</title></head><body><main><h1>Gear talk</h1>` +
    `<p>${PROSE.repeat(3)}</p><ul class="topiclist topics">${rows}</ul></main>` +
    `<div class="sticky-bar"><p>Stay in the loop: join the board's mailing list today.</p>` +
    `</div></body></html>`;
  const text = mainText(page);
  assert.match(text, /Read the board rules before you post/);
  assert.match(text, /Where to ask for help with your account/);
  assert.match(text, /Packing light in winter/);
  // A block named sticky that is no row of a list still goes.
  assert.doesNotMatch(text, /Stay in the loop/);
});

Deno.test("a short section headed by a chrome word over a paragraph of prose is content", () => {
  const section = (heading: string, paragraph: string) =>
    `<div class="block"><h2>${heading}</h2><p>${paragraph}</p></div>`;
  const page = `<html><head><title>Trail Tent</title></head><body><main><h1>Trail Tent</h1>` +
    `<p>${PROSE.repeat(6)}</p>` +
    section(
      "Support",
      "Our team answers every question about the tent by email within one working day, " +
        "and repairs are free for the first five years you own it.",
    ) +
    section(
      "Support us",
      "Please donate to keep this site free: every gift, large or small, pays for our " +
        "servers and our writers.",
    ) + `</main></body></html>`;
  const text = mainText(page);
  assert.match(text, /Support\nOur team answers every question/);
  // A box asking the readers for money is still the publisher's appeal.
  assert.doesNotMatch(text, /Support us|Please donate/);
});

Deno.test("a service's hero line naming a to-do list is no call to sign up", () => {
  const page = `<html><head><title>Tasks</title></head><body><main><div class="hero">` +
    `<h1>Clarity, finally.</h1><p>Join 50+ million people who plan work and life with ` +
    `the #1 to-do list app.</p></div><section><h2>Clear your mind</h2><p>${PROSE.repeat(6)}` +
    `</p></section><p>Join our list to get news.</p></main></body></html>`;
  const text = mainText(page);
  assert.match(text, /Clarity, finally\.\nJoin 50\+ million people/);
  // A call to join, to get something, still goes.
  assert.doesNotMatch(text, /Join our list/);
});

Deno.test("a listing's entries keep their authors; one story's byline still goes", () => {
  const books = ["Persuasion", "Emma", "Middlemarch", "Ulysses", "Dubliners"];
  const rows = books.map((title, i) =>
    `<tr><td class="number">${i + 1}</td><td><a class="bookTitle" href="/b/${i}">` +
    `<span>${title}</span></a><br><span class="by">by</span> <span itemprop="author">` +
    `<div class="authorName__container"><a class="authorName" href="/a/${i}">Writer Number ` +
    `${i + 1}</a></div></span><br><div><span>4.${i} avg rating, ${i + 2},000 ratings</span>` +
    `</div></td></tr>`
  ).join("");
  const page = `<html><head><title>Best Books</title></head><body><h1>Best Books</h1>` +
    `<table class="tableList">${rows}</table><p>${PROSE.repeat(3)}</p></body></html>`;
  const text = mainText(page);
  for (let i = 1; i <= books.length; i++) assert.match(text, new RegExp(`Writer Number ${i}\\n`));
  assert.match(text, /Middlemarch\nby\nWriter Number 3\n4\.2 avg rating/);
  // A feed's cards, each naming its authors in a list of their own.
  const cards = books.map((title, i) =>
    `<li class="loop-card"><h3><a href="/s/${i}">${title} is back in print this spring</a></h3>` +
    `<ul class="loop-card__author-list"><li><a href="/w/${i}">Critic Number ${i + 1}</a></li>` +
    `<li><a href="/w/x${i}">Editor Number ${i + 1}</a></li></ul></li>`
  ).join("");
  const feed = mainText(
    `<html><head><title>Latest</title></head><body><h1>Latest</h1><ul>${cards}</ul></body></html>`,
  );
  assert.match(feed, /Emma is back in print this spring\nCritic Number 2\nEditor Number 2\n/);
  // One story: its byline, named as the author's, is the page's chrome.
  const story = `<html><head><title>A story</title></head><body><article><h1>A story</h1>` +
    `<div class="authorName"><a href="/a/1">Writer Number 1</a></div>` +
    `<p>${PROSE.repeat(6)}</p><p>${PROSE.repeat(6)}</p></article></body></html>`;
  assert.doesNotMatch(mainText(story), /Writer Number 1/);
});

Deno.test("a page's footer is never its content, nor counts against its <main>", () => {
  const sections = ["Pay over time", "Trade in", "Free delivery"].map((h, i) =>
    `<section><h2>${h}</h2><p>Short blurb number ${i} about buying here.</p></section>`
  ).join("");
  // The footer's fine print outweighs the main region many times over.
  const notes = Array.from(
    { length: 12 },
    (_, i) =>
      `<p><small>Fine print number ${i}: offer subject to credit approval and to terms, rates, ` +
      `and availability, which vary by region, device, and carrier.</small></p>`,
  ).join("");
  const page = `<html><head><title>Shop Watch</title></head><body>` +
    `<div class="top"><a href="/">Store</a> <a href="/bag">Bag</a></div>` +
    `<main><h1>Shop Watch</h1>${sections}</main>` +
    `<footer><div class="notes">${notes}</div><div>Copyright 2026.</div></footer></body></html>`;
  const text = mainText(page);
  for (const h of ["Pay over time", "Trade in", "Free delivery"]) {
    assert.match(text, new RegExp(`${h}\n`));
  }
  assert.doesNotMatch(text, /Fine print number/);
  // Measured without its footer, the <main> holds most of the page: what is outside it goes.
  assert.doesNotMatch(text, /Store Bag/);
});

Deno.test("a gallery of headed tiles on a page that is no story is its content", () => {
  const tiles = ["Series Eleven", "Model Three", "Ultra Four"].map((name, i) =>
    `<div class="tile"><img src="/w${i}.png" alt=""><h3>Watch ${name}</h3>` +
    `<p>The watch for your health, in ${i + 2} colors.</p><p>From $${i + 2}99</p></div>`
  ).join("");
  const sections = ["Pay over time", "Trade in", "Free delivery"].map((h, i) =>
    `<section><h2>${h}</h2><p>A blurb number ${i} about buying here. ${
      PROSE.repeat(2)
    }</p></section>`
  ).join("");
  const page = `<html><head><title>Shop Watch</title></head><body>` +
    `<main><h1>Shop Watch</h1><div class="ProductTileGallery_container">${tiles}</div>` +
    `${sections}<div class="carousel"><div><h3>Slide of the loop</h3></div></div></main>` +
    `</body></html>`;
  const text = mainText(page);
  for (const name of ["Series Eleven", "Model Three", "Ultra Four"]) {
    assert.match(text, new RegExp(`Watch ${name}\n`));
  }
  assert.match(text, /From \$299/);
  // A carousel shows one slide at a time and repeats its slides to loop: still no content.
  assert.doesNotMatch(text, /Slide of the loop/);
});

Deno.test("a gallery named as such in a story is still the story's chrome", () => {
  const gallery = `<div class="gallery"><img src="/a.jpg" alt=""><h3>Photo one of four</h3>` +
    `<img src="/b.jpg" alt=""><h3>Photo two of four</h3></div>`;
  const page = `<html><head><meta property="og:type" content="article"><title>A story</title>` +
    `</head><body><article><h1>A story</h1><p>${PROSE.repeat(6)}</p>${gallery}` +
    `<p>${PROSE.repeat(6)}</p></article></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the page/);
  assert.doesNotMatch(text, /Photo one of four/);
});

Deno.test("a feed's reaction, like and share counters alone on their line go", () => {
  const stories = ["Drift to determinism", "Friction as a prerequisite", "A desktop cat"];
  const cards = stories.map((title, i) =>
    `<div class="story"><h2><a href="/s/${i}">${title}: what a week of rebuilding taught</a></h2>` +
    `<p>An opening line of the story number ${i}, long enough to read as its summary.</p>` +
    `<div><a href="/s/${i}#r">${
      i + 4
    }${i} reactions</a></div><div><span>1.${i}k views</span></div>` +
    `<div><a href="/s/${i}#c">${i + 2} comments</a></div></div>`
  ).join("");
  const page = `<html><head><title>Feed</title></head><body><main><h1>Feed</h1>${cards}</main>` +
    `</body></html>`;
  const text = mainText(page);
  for (const title of stories) assert.match(text, new RegExp(title));
  assert.match(text, /long enough to read as its summary/);
  assert.doesNotMatch(text, /reactions|views/);
  assert.doesNotMatch(text, /\d comments/);
});

Deno.test("a block set twice, once per screen size, is read once: as on a large screen", () => {
  const about = (n: number) =>
    `<p>A wheel thrown, matte textured mug number ${n} in our white speckle finish, made by hand ` +
    `in small batches, so each one differs a little from the next.</p><p>Volume: 350ml</p>`;
  // Squarespace's pair, then Tailwind's: the small screens' copy goes.
  const copies = [
    `<div class="product-description hidden-down-md">${about(1)}</div>`,
    `<div class="product-description hidden-up-md">${about(1)}</div>`,
    `<div class="hidden md:block">${about(2)}</div>`,
    `<div class="md:hidden">${about(2)}</div>`,
  ];
  const page = `<html><head><title>Mug</title></head><body><main><h1>White speckle mug</h1>` +
    `${copies.join("")}</main></body></html>`;
  const text = mainText(page);
  for (const n of [1, 2]) {
    assert.equal(text.split(`textured mug number ${n} `).length, 2, `mug ${n} once in:\n${text}`);
  }
});
