// Chrome that leaked into an article's main content, and the content kept beside it.
import assert from "node:assert/strict";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { extractMainContent } from "../../lib/extract/content/mod.ts";
import { renderPlainText } from "../../lib/extract/content/plain_text.ts";

/** The main content of `page` as plain text: the path of the service's text=true. */
const mainText = (page: string) => renderPlainText(extractMainContent(parseHtml(page)));

const PROSE = "A sentence of the story long enough to count, with commas, clauses, and words. ";

function assertLacks(text: string, chrome: string[]): void {
  for (const words of chrome) assert.ok(!text.includes(words), `${words} kept:\n${text}`);
}

Deno.test("a page stating og:type twice is an article when either says so", () => {
  // Cards linked by an empty overlay link: their words read as prose outside links.
  const card = (n: number) =>
    `<li><a href="/other-${n}"></a><div class="title">Other story ${n}</div><span>The opening
    words of another story on the site, dated the week before, set under its headline.</span></li>`;
  const page = `<html><head><title>Story</title>
    <meta property="og:type" content="website"><meta property="og:type" content="article">
    </head><body><div class="page"><section class="content"><h1>Story</h1>
    <p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p></section></div>
    <div class="more"><div><div><ul class="timeline">
    ${Array.from({ length: 16 }, (_, n) => card(n)).join("")}</ul></div></div></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assertLacks(text, ["Other story", "opening words"]);
});

Deno.test("a web component named as page furniture is read as the tag it stands for", () => {
  const page = `<html><head><title>Story</title></head><body><div class="post">
    <h1>Story</h1><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p>
    <site-sidebar><p>Our editors picked these stories for you this week, from the archive and
    from the newest issue, with care.</p></site-sidebar><p>${PROSE.repeat(5)}</p>
    <pp-footer><p>Everything on this site is written by our team of editors, in the city, since
    the year the paper was founded.</p></pp-footer></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assertLacks(text, ["Our editors picked", "Everything on this site"]);
});

Deno.test("a line of chrome set apart by a block, not a <br>, goes; prose beside it stays", () => {
  const page = `<html><head><title>Story</title></head><body><div class="entry">
    <h1>Story</h1><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p>
    Then a line of the story written straight into its container, with no paragraph around it.
    <p>${PROSE.repeat(5)}</p><form action="/comment"><textarea></textarea></form>
    Du musst <a href="#login">Eingeloggt</a> sein um Kommentare zu schreiben!</div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assert.match(text, /Then a line of the story written straight/);
  assertLacks(text, ["Eingeloggt", "Kommentare"]);
});

Deno.test("a short story headed by the page's title is not outweighed by the page's menus", () => {
  // Menu labels that are no links (a script opens each): words outside links, as prose is.
  const labels = Array.from({ length: 40 }, (_, n) => `<li>Menu label number ${n}</li>`).join("");
  const page = `<html><head><title>Fertile land lost in the valley | Environment | Site</title>
    </head><body><div class="top"><ul class="languages">${labels}</ul></div>
    <div class="col3"><h1>Fertile land lost in the valley</h1><p>${PROSE.repeat(4)}</p>
    <p>${PROSE}</p></div><div class="bottom"><ul class="topics">${labels}</ul></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assertLacks(text, ["Menu label"]);
});

Deno.test("a print or e-mail button's line goes; the word print in prose or code stays", () => {
  const page = `<html><head><title>Story</title></head><body><div class="entry">
    <h1>Story</h1><p>${PROSE.repeat(5)}</p><p>They print this page of the story again.</p>
    <pre><code><span class="k">print</span>(<span class="s">"done"</span>)</code></pre>
    <p>${PROSE.repeat(5)}</p><p><strong>Imprimer</strong>
    <a href="javascript:window.print()">Imprimer cette page</a></p>
    <p>Email this page to a friend</p></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assert.match(text, /They print this page of the story again\./);
  assert.match(text, /print\("done"\)/);
  assertLacks(text, ["Imprimer", "Email this"]);
});

Deno.test("a program's highlighted comments stay; a highlighter's style inside it goes", () => {
  const page = `<html><head><title>Story</title></head><body><div class="entry">
    <h1>Story</h1><p>${PROSE.repeat(5)}</p><pre><style>.c{color:gray}</style><code>count = 1
<span class="comment">// the count starts at one</span>
<span class="share">share</span>(count)</code></pre><p>${PROSE.repeat(5)}</p></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assert.match(text, /\/\/ the count starts at one/);
  assert.match(text, /share\(count\)/);
  assertLacks(text, ["color:gray"]);
});

Deno.test("a block named a call to action (cta) is chrome; the story beside it stays", () => {
  const page = `<html><head><title>Story</title></head><body><main><div class="post">
    <h1>Story</h1><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p>
    <div class="short-cta"><h2 class="short-cta__title">Tell us your own story</h2>
    <div class="short-cta__text">Share your inspiring personal story of hope and healing with
    our readers and our team.</div><a href="/submit" class="short-cta__button">Submit a story</a>
    </div><p>${PROSE.repeat(2)}The last words of the story.</p></div></main></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["Tell us your own story", "inspiring", "Submit a story"]);
});

/** Each of `lines` as a paragraph of its own. */
const paragraphs = (lines: string[]) => lines.map((line) => `<p>${line}</p>`).join("");

/** Each of `lines`, a paragraph of its own inside a story, goes; the story's end stays. */
function assertLinesGo(lines: string[]): void {
  const text = mainText(story(paragraphs(lines)));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, lines);
}

/** A story page (og:type article) with `extra` inside its body and `after` at its end. */
function story(extra: string, after = ""): string {
  return `<html><head><title>Story</title><meta property="og:type" content="article"></head>
    <body><main><article><h1>Story</h1><div class="article-body"><p>${PROSE.repeat(3)}</p>
    ${extra}<p>${PROSE.repeat(3)}</p><p>${PROSE.repeat(2)}The last words of the story.</p>
    ${after}</div></article></main></body></html>`;
}

Deno.test("a newsletter's pitch under its sign-up heading goes, as the heading does", () => {
  const text = mainText(story(
    "",
    `<h3>Sign up for our morning newsletter</h3><p>Get the day's top stories delivered straight
    to your inbox every weekday.</p>`,
  ));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["Sign up", "to your inbox"]);
});

Deno.test("a line telling how to reach the reporter goes; a sentence about reaching stays", () => {
  const text = mainText(story(
    "<p>The summit can be reached at dawn by the northern trail, the guides said.</p>",
    "<p>Contact the reporter at jane.doe@example.invalid or on the newsroom's phone line.</p>",
  ));
  assert.match(text, /The summit can be reached at dawn/);
  assertLacks(text, ["Contact the reporter"]);
});

Deno.test("a block labelled as a sponsor's goes from a story, with its pitch", () => {
  const text = mainText(story(
    `<div><p>Sponsored content</p><p>Find the best car insurance rates in your area in a few
    minutes, from the comfort of your own home.</p></div>`,
  ));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["Sponsored", "car insurance"]);
});

Deno.test("a page stating a schema.org article in microdata is an article", () => {
  const card = (n: number) =>
    `<li><a href="/other-${n}"></a><div class="title">Other story ${n}</div><span>The opening
    words of another story on the site, dated the week before, set under its headline.</span></li>`;
  const page = `<html><head><title>Story</title></head><body>
    <div class="page" itemscope itemtype="https://schema.org/BlogPosting"><section class="content">
    <h1 itemprop="headline">A post</h1><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p>
    <p>${PROSE.repeat(5)}</p></section></div><div class="more"><div><div><ul class="timeline">
    ${Array.from({ length: 16 }, (_, n) => card(n)).join("")}</ul></div></div></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assertLacks(text, ["Other story", "opening words"]);
});

Deno.test("a block named as an image's description is its caption; the story stays", () => {
  const text = mainText(story(
    `<div class="feature"><img src="sign.jpg" alt=""><div class="show-feature-image-description">
    The sign on the wall of the office, made by one of the readers.</div></div>`,
  ));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["The sign on the wall"]);
});

Deno.test("an '(Image Source)' link line under a picture goes; a sentence naming one stays", () => {
  const text = mainText(story(
    `<p><img src="board.jpg" alt=""></p><p>(<a href="https://example.invalid/i">Image Source</a>)
    </p><p>The image source was a photo the team took of the board that morning.</p>`,
  ));
  assert.match(text, /The image source was a photo/);
  assertLacks(text, ["(Image Source)"]);
});

Deno.test("a story's comments under a heading naming them go with it, up to the next heading", () => {
  const comment = (n: number) =>
    `<li><p><b>reader${n}</b> says:</p><p>I think this is a really good idea and the council
    should have done it years ago, honestly.</p></li>`;
  const text = mainText(story(
    `<h2>Most popular breeds</h2><p>${PROSE.repeat(2)}The breeds section ends here.</p>`,
    `<h3>3 Responses</h3><ol>${[1, 2, 3].map(comment).join("")}</ol><h3>Leave a Reply</h3>
    <p>Your email address will not be published. Required fields are marked *</p>`,
  ));
  assert.match(text, /Most popular breeds/);
  assert.match(text, /The breeds section ends here\./);
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["Responses", "reader1", "really good idea", "Leave a Reply", "published"]);
});

Deno.test("a page that says no article keeps what a replies heading heads", () => {
  const reply = (n: number) =>
    `<li><p><b>member${n}</b> wrote:</p><p>Reply ${n}: the same happened to me after the update,
    and restarting the router fixed it for a while.</p></li>`;
  const page = `<html><head><title>Router drops</title></head><body><div class="thread">
    <h1>Router drops</h1><p>${PROSE.repeat(4)}</p><h3>3 Replies</h3>
    <ol>${[1, 2, 3].map(reply).join("")}</ol></div></body></html>`;
  const text = mainText(page);
  for (const n of [1, 2, 3]) assert.match(text, new RegExp(`Reply ${n}: the same happened`));
});

Deno.test("'Story continues below advertisement' and a 'More coverage:' label go", () => {
  const text = mainText(story(
    `<p>Story continues below advertisement</p>`,
    `<p><strong>More coverage:</strong></p><ul><li><a href="/a">Mayor says taxes will rise next
    year for roads</a></li><li><a href="/b">Schools get new money in the plan</a></li></ul>`,
  ));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["continues below", "More coverage"]);
});

Deno.test("bylines naming a role ('Written by', 'Medically reviewed by', ', Staff Writer') go", () => {
  const page = `<html><head><title>Story</title><meta property="og:type" content="article">
    </head><body><main><div class="story"><h1>Story</h1><p>Written by Jane Doe</p>
    <p>Medically reviewed by Dr. John Roe, MD</p><p>Jane Doe, Staff Writer</p>
    <div>Share 12 Tweet Pin It</div><p>${PROSE.repeat(4)}</p>
    <p>Written by hand, the letter reached the council a week late.</p><p>${PROSE.repeat(4)}</p>
    </div></main></body></html>`;
  const text = mainText(page);
  assert.match(text, /Written by hand, the letter/);
  assertLacks(text, ["Written by Jane", "reviewed by", "Staff Writer", "Tweet"]);
});

Deno.test("an affiliate-links notice, a 'Pin this' prompt and an audio label go", () => {
  const text = mainText(story(
    `<p><em>This post may contain affiliate links. Please read our disclosure policy.</em></p>
    <p>Pin this for later!</p><div>Audio: Listen to the report (3:12)</div>`,
  ));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["affiliate", "Pin this", "Listen to the report"]);
});

Deno.test("a credit line set close to its copyright sign ('©Thinkstock') goes", () => {
  const text = mainText(story(`<p><img src="photo.jpg" alt=""></p><p>©Thinkstock</p>`));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["Thinkstock"]);
});

Deno.test("chrome lines in German, Spanish and French go; a paragraph opening alike stays", () => {
  const chrome = [
    "Zur Startseite",
    "Newsletter abonnieren",
    "Meistgelesen",
    "Mit Material von dpa",
    "(dpa)",
    "Síguenos en Twitter",
    "Comparte esta noticia",
    "Sur le même sujet",
    "Mis à jour le 3 mars 2024 à 17h32",
    "Sie sind hier: Startseite > Politik",
  ];
  const text = mainText(story(
    `${paragraphs(chrome)}
    <p>(dpa) Der Stadtrat hat am Dienstag den Haushalt beschlossen, mit mehr Geld für Schulen.</p>`,
  ));
  assert.match(text, /\(dpa\) Der Stadtrat hat am Dienstag/);
  assert.match(text, /The last words of the story\./);
  assertLacks(text, chrome.filter((line) => line !== "(dpa)"));
  assert.ok(!text.split("\n").includes("(dpa)"), text);
});

Deno.test("blocks headed as recommendations and paywall notes in other languages go", () => {
  const block = (heading: string) =>
    `<div><h3>${heading}</h3><p>The mayor says taxes will rise next year to pay for the roads of
    the city and its parks.</p></div>`;
  const text = mainText(story(
    `${block("Mehr aus der Region")}${block("Te recomendamos")}${
      block("Nos articles recommandés")
    }${block("Potrebbe interessarti anche")}
    <p>Dieser Artikel ist nur für Abonnenten verfügbar.</p>
    <p>Unterstützen Sie unabhängigen Journalismus: Jetzt Abo abschließen.</p>`,
  ));
  assert.match(text, /The last words of the story\./);
  assertLacks(text, ["Mehr aus", "Te recomendamos", "recommandés", "interessarti", "taxes will"]);
  assertLacks(text, ["Abonnenten", "Journalismus"]);
});

Deno.test("photo credits and archive-photo labels in other languages go", () => {
  const credits = [
    "Imagen: Juan Pérez",
    "Fotografía: Juan Pérez",
    "Crédito: EFE",
    "Foto di Mario Rossi",
    "Bildquelle: Max Mustermann",
    "Fonte: ANSA",
    "Symbolbild",
    "Foto de archivo",
  ];
  assertLinesGo(credits);
});

Deno.test("datelines, reading times and bylines in French and Spanish go", () => {
  const lines = [
    "Publié le 3 mars 2024 à 17h32",
    "Modifié le 3 mars 2024",
    "Actualizado el 3 de marzo de 2024",
    "Lesedauer: 3 Minuten",
    "Lectura: 3 min",
    "Redaktion: Max Mustermann",
    "Redacción",
    "Escrito por Juan Pérez",
  ];
  const text = mainText(story(
    `${paragraphs(lines)}
    <p>Lectura del informe: the council read the whole report aloud before the vote began.</p>`,
  ));
  assert.match(text, /Lectura del informe: the council read/);
  assertLacks(text, lines);
});

Deno.test("news controls alone on their line go; a program's word inline in a list stays", () => {
  const lines = ["Skip Advertisement", "Share full article", "Hide caption", "Gift this article"];
  const text = mainText(story(
    `${paragraphs(lines)}
    <p><code>Read</code>, <code>Write</code>, <code>Trending</code>, <code>Flush</code></p>`,
  ));
  assert.match(text, /Read, Write, Trending, Flush/);
  assertLacks(text, lines);
});

Deno.test("a blog's lines around its post (labels, reactions, pager, share bar) go", () => {
  const lines = [
    "Labels: politics, budget",
    "Reactions:",
    "Newer Post Older Post Home",
    "Email ThisBlogThis!Share to TwitterShare to Facebook",
    "Posted by Jane Doe",
    "Eingestellt von Max um 10:32",
  ];
  assertLinesGo(lines);
});

Deno.test("a story's kicker above its headline goes; a line above another heading stays", () => {
  const page = `<html><head><title>Council approves budget</title>
    <meta property="og:type" content="article"></head><body><main><div class="story">
    <a href="/politics">Local Politics</a><h1>Council approves budget</h1><p>${PROSE.repeat(4)}</p>
    <p>The vote came late.</p><h2>What comes next</h2><p>${PROSE.repeat(4)}</p></div></main>
    </body></html>`;
  const text = mainText(page);
  assert.match(text, /The vote came late\./);
  assert.match(text, /What comes next/);
  assertLacks(text, ["Local Politics"]);
});

Deno.test("ad networks' widget labels, share-tool states and 'Related Topics' go", () => {
  const lines = [
    "Related Topics",
    "From our partners",
    "Promoted Stories",
    "Around the web",
    "Ad Feedback",
    "Copy link",
    "Have you got a story? Email us at news@example.invalid",
  ];
  assertLinesGo(lines);
});

Deno.test("a line of a short label, a colon and one headline link goes, in any language", () => {
  // Labels in no word list: the shape (label, colon, a link that is the rest) gives them away.
  const page = `<html><head><title>Story</title></head><body><div class="entry">
    <h1>Story</h1><p>${PROSE.repeat(5)}</p>
    <p><strong>Dowiedz się więcej: <a href="/other-story"><em>Kto jak głosował ws. unijnych
    funduszy? Jeden z polityków wyłamał się</em></a></strong></p>
    <p>${PROSE.repeat(5)}</p><p>Ilikaa pia: <a href="/another">Habari nyingine ya wiki hii kuhusu
    bunge</a></p><p>${PROSE.repeat(5)}</p>
    <p>Website: <a href="https://tool.example.invalid/">https://tool.example.invalid/</a></p>
    <p>Ende: the story goes on, and <a href="/ref">a link inside the prose</a> is part of it.</p>
    </div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  // An address after a label is a fact of the story; prose around a link is the story's.
  assert.match(text, /Website: https:\/\/tool\.example\.invalid/);
  assert.match(text, /a link inside the prose is part of it/);
  assertLacks(text, ["Dowiedz", "Kto jak", "Ilikaa", "Habari nyingine"]);
});

Deno.test("page furniture stated in schema.org microdata goes, whatever its names", () => {
  const crumbs = ["Home", "World", "Europe"].map((name, n) =>
    `<li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="/c${n}"><span itemprop="name">${name} section</span></a></li>`
  ).join("");
  const page = `<html><head><title>Story</title></head><body><div class="entry">
    <ol class="trail" itemscope itemtype="https://schema.org/BreadcrumbList">${crumbs}</ol>
    <h1>Story</h1><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p>
    <div class="box" itemscope itemtype="http://schema.org/WPSideBar"><p>Stories our editors
    chose for this week, from the newest issue and the archive of the paper.</p></div>
    <p>${PROSE.repeat(5)}</p></div></body></html>`;
  const text = mainText(page);
  assert.match(text, /A sentence of the story/);
  assertLacks(text, ["Europe section", "Stories our editors chose"]);
});

Deno.test("strips of story cards reached through empty links go; one such card stays", () => {
  // The empty link last in each card, stretched over it by the page's CSS...
  const overlaid = (n: number) =>
    `<li><article class="content-article"><div class="item"><div class="text"><h3>Another
    headline number ${n} of the site, from the week before</h3><p>Kicker ${n}</p></div>
    <picture><img alt="Another headline number ${n}" src="/t${n}.jpg"></picture></div>
    <a class="links" href="/politics/story-${n}.html"></a></article></li>`;
  // ...or over the picture and beside the headline, no heading tag.
  const beside = (n: number) =>
    `<li><div class="wrapper"><div class="image"><a href="/news/teaser-${n}" title="Teaser ${n}">
    </a><img src="/t${n}.jpg"></div><div class="text"><div class="topline">Video series</div>
    <a href="/news/teaser-${n}" title="Teaser ${n}"></a><div class="title">A teaser headline
    ${n}</div><p><span class="date">01.12.2021</span>Its opening words, set under the title of
    the card.</p></div></div></li>`;
  // One card of the story's own with a stray empty link (a financing offer's): it stays.
  const offer = `<div class="offer"><a href="/financing/"></a><p>Pay for the bike over twelve
    months, as the maker's offer to the readers of this story says.</p></div>`;
  const strip = (card: (n: number) => string, count: number) =>
    Array.from({ length: count }, (_, n) => card(n)).join("");
  const page = `<html><head><title>Story</title></head><body><div class="news">
    <div class="entry-title"><a class="section" href="/politics/">Politics</a><h1>Story</h1>
    <div class="bajada">${PROSE}</div></div><div class="notas"><div class="colright">
    <div class="ultimas_columDer"><label>Últimas Noticias</label><ul>${strip(overlaid, 6)}</ul>
    </div></div><div class="body"><p>${PROSE.repeat(5)}</p><p>${PROSE.repeat(5)}</p>${offer}
    <p>${PROSE.repeat(5)}</p><ul class="row">${strip(beside, 4)}</ul></div></div></div>
    </body></html>`;
  const text = mainText(page);
  // The standfirst, under a head whose link has words: no card.
  assert.match(text, /^A sentence of the story [^\n]*words\.$/m);
  assert.match(text, /Pay for the bike over twelve months/);
  assertLacks(text, ["Another headline", "Kicker", "A teaser headline", "Its opening words"]);
});
