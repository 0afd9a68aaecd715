import assert from "node:assert/strict";
import {
  type CustomMedia,
  type CustomRules,
  runRulesOnDocument,
  validateRules,
} from "../../lib/extract/custom/mod.ts";
import { parseHtml } from "../../lib/extract/dom/mod.ts";
import { applyType, toNumber } from "../../lib/extract/custom/value_types.ts";
import { MAX_ATTRS, MAX_SELECTOR_CHARS } from "../../lib/extract/custom/rules.ts";
import { extract } from "../../lib/extract/mod.ts";
import type { ApiError } from "../../lib/util/errors.ts";

const URL = "https://shop.example/products/lamp?ref=1";

const PAGE = `<!doctype html>
<html lang="en-GB">
<head>
  <title>  Desk   Lamp | Example Shop </title>
  <base href="https://cdn.example/assets/">
  <meta property="og:image" content="/img/lamp.jpg">
  <meta name="price" content="1,234.50">
</head>
<body>
  <h2 class="tagline">Light for   <em>late</em> nights</h2>
  <span class="price">Now only $1,234.50!</span>
  <span class="stock">yes</span>
  <time datetime="2024-03-05T10:00:00Z">5 March</time>
  <p class="byline">By   Ada Lovelace</p>
  <a class="mail" href="mailto:Sales@Shop.EXAMPLE?subject=hi">write</a>
  <img class="hero" src="hero.png" alt="Hero">
  <ul class="links">
    <li><a href="/a">A</a></li>
    <li><a href="b.html">B</a></li>
    <li><a>no href</a></li>
    <li><a href="javascript:void(0)">js</a></li>
  </ul>
  <div class="story"><h3>First</h3><a href="/s/1">read</a><span class="n">10</span></div>
  <div class="story"><h3>Second</h3><a href="/s/2">read</a></div>
  <div class="story"><p>no title, no link</p></div>
  <form>
    <input name="q" value="lamps">
    <select name="c"><option value="1">One</option><option value="2" selected>Two</option></select>
    <textarea name="t">  typed  text </textarea>
  </form>
  <div id="rich"><p>Hello <b>world</b></p></div>
  <script type="application/json" id="data">{"sku": "L-1", "tags": ["a"]}</script>
  <span class="ip">192.0.2.7</span><span class="tagged">pt_BR</span>
</body>
</html>`;

/** Rules over a page parsed as the DOM step parses it (lib/extract/dom/work.ts). */
function runRules(html: string, url: string, rules: CustomRules): Record<string, unknown> {
  return runRulesOnDocument(parseHtml(html), { url, rules });
}

/** A media value before the request's probes: what its URL tells. */
function media(url: string, type: string) {
  return { url, type, size: null, size_pretty: null, width: null, height: null };
}

function run(rules: unknown): Record<string, unknown> {
  return runRules(PAGE, URL, validateRules(rules));
}

function invalid(path: string) {
  return (error: ApiError) => {
    assert.equal(error.name, "ApiError");
    assert.equal(error.code, "EINVALDATA");
    assert.equal(error.status, 400);
    assert.ok(error.message.includes(`\`${path}\``), `${error.message} should name ${path}`);
    return true;
  };
}

Deno.test("validateRules() normalises the query parser's output", () => {
  const rules = validateRules({
    price: { selector: ".price", type: "number" },
    links: { selector_all: "a", attr: "href" },
    title: [{ selector: "h1" }, { selector: "title" }],
    stories: { selectorAll: ".story", attr: { title: { selector: "h2" } } },
    media: { selector: ["video", "img"], attr: ["data-src", "src"], type: "IMAGE" },
  });
  assert.deepEqual(
    rules,
    {
      price: [{ selector: [".price"], type: ["number"] }],
      links: [{ selectorAll: ["a"], attr: ["href"] }],
      title: [{ selector: ["h1"] }, { selector: ["title"] }],
      stories: [{ selectorAll: [".story"], attr: { title: [{ selector: ["h2"] }] } }],
      media: [{ selector: ["video", "img"], attr: ["data-src", "src"], type: ["image"] }],
    } satisfies CustomRules,
  );
});

Deno.test("validateRules() rejects bad rules naming the parameter", async (t) => {
  await t.step("not an object", () => {
    assert.throws(() => validateRules("true"), invalid("data"));
    assert.throws(() => validateRules(["x"]), invalid("data"));
    assert.throws(() => validateRules({}), invalid("data"));
    assert.throws(() => validateRules({ price: ".price" }), invalid("data.price"));
  });
  await t.step("no selector, selectorAll or attr", () => {
    assert.throws(() => validateRules({ price: { type: "number" } }), invalid("data.price"));
    assert.throws(
      () => validateRules({ title: [{ selector: "h1" }, { type: "title" }] }),
      invalid("data.title.1"),
    );
    assert.throws(() => validateRules({ title: [] }), invalid("data.title"));
  });
  await t.step("bad selector syntax or unknown pseudo-class", () => {
    assert.throws(
      () => validateRules({ price: { selector: "a[" } }),
      invalid("data.price.selector"),
    );
    assert.throws(
      () => validateRules({ price: { selectorAll: ["a", "p:bogus"] } }),
      invalid("data.price.selectorAll.1"),
    );
    assert.throws(
      () => validateRules({ price: { selector: "  " } }),
      invalid("data.price.selector"),
    );
  });
  await t.step("unknown type", () => {
    assert.throws(
      () => validateRules({ price: { selector: ".p", type: "money" } }),
      (e: ApiError) => invalid("data.price.type")(e) && e.message.includes("`money`"),
    );
  });
  await t.step("attr neither a string nor an object of rules", () => {
    assert.throws(() => validateRules({ a: { selector: "a", attr: "" } }), invalid("data.a.attr"));
    assert.throws(
      () => validateRules({ a: { selector: "a", attr: ["href", { x: 1 }] } }),
      invalid("data.a.attr.1"),
    );
    assert.throws(
      () => validateRules({ a: { selector: "a", attr: { link: "href" } } }),
      invalid("data.a.attr.link"),
    );
  });
  await t.step("nested deeper than 5 levels", () => {
    let rule: Record<string, unknown> = { selector: "a" };
    for (let i = 0; i < 4; i++) rule = { selector: "div", attr: { x: rule } };
    assert.doesNotThrow(() => validateRules({ top: rule })); // 5 levels
    assert.throws(
      () => validateRules({ top: { selector: "div", attr: { x: rule } } }),
      invalid("data.top.attr.x.attr.x.attr.x.attr.x.attr.x"),
    );
  });
  await t.step("more than 50 rules, fallbacks and nested ones counted", () => {
    const fifty = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`r${i}`, { selector: "a" }]),
    );
    assert.doesNotThrow(() => validateRules(fifty));
    assert.throws(
      () => validateRules({ ...fifty, extra: { selector: "a" } }),
      (e: ApiError) => invalid("data")(e) && /too many rules/.test(e.message),
    );
    const nested = { ...fifty };
    nested.r0 = { selector: "a", attr: { inner: { selector: "b" } } } as never;
    assert.throws(() => validateRules(nested), /too many rules/);
  });
  await t.step("more attrs than MAX_ATTRS, more types than there are", () => {
    // Every match tries each attr, and each value each type: the lists bound a match's work.
    const attrs = Array.from({ length: MAX_ATTRS }, (_, i) => `data-${i}`);
    assert.doesNotThrow(() => validateRules({ t: { selectorAll: "p", attr: attrs } }));
    assert.throws(
      () => validateRules({ t: { selectorAll: "p", attr: [...attrs, "href"] } }),
      (e: ApiError) => invalid("data.t.attr")(e) && /17 attributes, at most 16/.test(e.message),
    );
    const types = Array.from({ length: 2500 }, () => "date");
    assert.throws(
      () => validateRules({ t: { selectorAll: "p", type: types } }),
      (e: ApiError) => invalid("data.t.type")(e) && /2500 types, at most 19/.test(e.message),
    );
  });
  await t.step("selectors longer than MAX_SELECTOR_CHARS in all", () => {
    // Compiled on the main thread as the query is checked: their length is its time.
    const half = Array(MAX_SELECTOR_CHARS / 4).fill("p").join(","); // half the bound, less one
    assert.doesNotThrow(() => validateRules({ a: { selector: half }, b: { selectorAll: half } }));
    assert.throws(
      () => validateRules({ a: { selector: half }, b: { selector: [half, "main h1"] } }),
      (e: ApiError) => invalid("data.b.selector")(e) && /16384 characters in all/.test(e.message),
    );
  });
  await t.step("a __proto__ name", () => {
    assert.throws(
      () => validateRules(JSON.parse('{"__proto__": {"selector": "a"}}')),
      invalid("data.__proto__"),
    );
  });
});

Deno.test("runRulesOnDocument() reads values with selector, attr and type", async (t) => {
  await t.step("html by default (Microlink's); text with whitespace normalised", () => {
    assert.deepEqual(run({ tagline: { selector: ".tagline" } }), {
      tagline: "Light for   <em>late</em> nights",
    });
    assert.deepEqual(run({ tagline: { selector: ".tagline", attr: "text" } }), {
      tagline: "Light for late nights",
    });
  });
  await t.step("number: grouping understood, null without digits", () => {
    assert.deepEqual(
      run({
        price: { selector: ".price", type: "number" },
        meta: { selector: 'meta[name="price"]', type: "number" },
        none: { selector: ".stock", type: "number" },
      }),
      { price: 1234.5, meta: 1234.5, none: null },
    );
  });
  await t.step("boolean, date, email, lang, ip", () => {
    assert.deepEqual(
      run({
        stock: { selector: ".stock", type: "boolean" },
        date: { selector: "time", attr: "datetime", type: "date" },
        email: { selector: "a.mail", attr: "href", type: "email" },
        lang: { selector: "html", attr: "lang", type: "lang" },
        lang2: { selector: ".tagged", type: "lang" },
        ip: { selector: ".ip", type: "ip" },
        notIp: { selector: ".stock", type: "ip" },
      }),
      {
        stock: true,
        date: "2024-03-05T10:00:00.000Z",
        email: "Sales@shop.example",
        lang: "en",
        lang2: "pt",
        ip: "192.0.2.7",
        notIp: null,
      },
    );
  });
  await t.step("url and media types resolve against <base href>", () => {
    assert.deepEqual(
      run({
        image: { selector: 'meta[property="og:image"]', type: "image" },
        hero: { selector: "img.hero", type: "image" },
        first: { selector: ".links a", type: "url" },
        js: { selector: '.links a[href^="javascript"]', type: "url" },
      }),
      {
        image: media("https://cdn.example/img/lamp.jpg", "jpg"),
        hero: media("https://cdn.example/assets/hero.png", "png"),
        first: "https://cdn.example/a",
        js: null,
      },
    );
  });
  await t.step("author and title are normalised", () => {
    assert.deepEqual(
      run({
        author: { selector: ".byline", type: "author" },
        title: { selector: "title", type: "title" },
      }),
      { author: "Ada Lovelace", title: "Desk Lamp | Example Shop" },
    );
  });
  await t.step("html, outerHTML, markdown, val and json reads", () => {
    assert.deepEqual(
      run({
        html: { selector: "#rich", attr: "html" },
        outer: { selector: "#rich p", attr: "outerHTML" },
        md: { selector: "#rich", attr: "markdown" },
        input: { selector: "input[name=q]", attr: "val" },
        select: { selector: "select", attr: "val" },
        textarea: { selector: "textarea" },
        json: { selector: "#data", type: "object" },
      }),
      {
        html: "<p>Hello <b>world</b></p>",
        outer: "<p>Hello <b>world</b></p>",
        md: "Hello **world**",
        input: "lamps",
        select: "2",
        textarea: "typed  text",
        json: { sku: "L-1", tags: ["a"] },
      },
    );
  });
  await t.step("a missing attribute or element is null", () => {
    assert.deepEqual(
      run({ a: { selector: "img.hero", attr: "data-nope" }, b: { selector: "article" } }),
      { a: null, b: null },
    );
  });
});

Deno.test("runRulesOnDocument() selectorAll, fallbacks, nesting and whole-page rules", async (t) => {
  await t.step("selectorAll: every value, nulls removed, hrefs absolute", () => {
    assert.deepEqual(run({ links: { selectorAll: ".links a", attr: "href" } }), {
      links: ["https://cdn.example/a", "https://cdn.example/assets/b.html", "javascript:void(0)"],
    });
    assert.deepEqual(run({ links: { selectorAll: ".links a", attr: "href", type: "url" } }), {
      links: ["https://cdn.example/a", "https://cdn.example/assets/b.html"],
    });
    assert.deepEqual(run({ none: { selectorAll: "article p" } }), { none: null });
  });
  await t.step("fallbacks: the first non-null wins", () => {
    assert.deepEqual(
      run({
        title: [{ selector: "h1" }, { selector: ".price", type: "date" }, { selector: "title" }],
        none: [{ selector: "h1" }, { selector: "h6" }],
      }),
      { title: "Desk   Lamp | Example Shop", none: null },
    );
    assert.deepEqual(run({ img: { selector: ["video", "img.hero"], attr: ["data-src", "alt"] } }), {
      img: "Hero",
    });
  });
  await t.step("nested rules run inside each match; empty matches dropped", () => {
    assert.deepEqual(
      run({
        stories: {
          selectorAll: ".story",
          attr: {
            title: { selector: "h3" },
            link: { selector: "a", attr: "href" },
            n: { selector: ".n", type: "number" },
          },
        },
        first: { selector: ".story", attr: { title: { selector: "h3" } } },
      }),
      {
        stories: [
          { title: "First", link: "https://cdn.example/s/1", n: 10 },
          { title: "Second", link: "https://cdn.example/s/2", n: null },
        ],
        first: { title: "First" },
      },
    );
  });
  await t.step("attr without selector applies to the whole page", () => {
    const out = run({ page: { attr: "markdown" } });
    assert.equal(typeof out.page, "string");
    assert.match(out.page as string, /^## Light for \*late\* nights$/m);
    assert.match(out.page as string, /^- \[A\]\(https:\/\/cdn\.example\/a\)$/m);
  });
});

Deno.test("runRulesOnDocument() reads Microlink's tagName, nodeName and regexp", () => {
  assert.deepEqual(
    run({
      tag: { selector: "#rich", attr: "tagName" },
      node: { selector: "#rich p", attr: "nodeName" },
      inner: { selector: "#rich b", attr: ["nope", "tagName"] },
    }),
    { tag: "DIV", node: "P", inner: "B" },
  );
  const base = "https://ex.test/";
  assert.equal(applyType(" /a+b/gi ", "regexp", base), "/a+b/gi");
  assert.equal(applyType("^\\d{3}$", "regexp", base), "^\\d{3}$");
  assert.equal(applyType("(unclosed", "regexp", base), null);
  assert.equal(applyType("/a/zz", "regexp", base), null, "unknown flags");
  assert.equal(applyType("a".repeat(3000), "regexp", base), null, "bounded");
});

Deno.test("runRulesOnDocument() lists every media value for the probes, by reference", () => {
  const media: CustomMedia[] = [];
  const out = runRulesOnDocument(parseHtml(PAGE), {
    url: URL,
    rules: validateRules({
      hero: { selector: "img.hero", type: "image" },
      links: { selectorAll: ".links a", attr: "href", type: "video" },
    }),
    media,
  });
  assert.deepEqual(media.map((m) => m.kind), ["image", "video", "video"]);
  assert.equal(media[0]!.value, out.hero, "the same object as in the output");
  assert.equal(media[1]!.value, (out.links as unknown[])[0]);
});

Deno.test("runRulesOnDocument() never throws at run time", () => {
  // Rules that skipped validation, on markup that is not HTML at all.
  const rules = {
    bad: [{ selector: ["a["] }],
    odd: [{ selector: ["p"], type: ["nope" as never] }],
    ok: [{ selector: ["p"] }],
  } as CustomRules;
  assert.deepEqual(runRules("<p>x</p>", "https://ex.test/", rules), {
    bad: null,
    odd: null,
    ok: "x",
  });
  assert.deepEqual(
    runRules("\u0000<<<>>", "not a url", { x: [{ selector: ["a"], type: ["url"] }] }),
    {
      x: null,
    },
  );
});

Deno.test("toNumber() understands grouping and decimals", () => {
  const cases: Array<[string, number | null]> = [
    ["1,234.50", 1234.5],
    ["1.234,50 €", 1234.5],
    ["3,5", 3.5],
    ["1,234,567", 1234567],
    ["1.234.567", 1234567],
    ["$ 12", 12],
    ["-4 points", -4],
    ["\u22127", -7],
    ["12\u00a0345", 12345],
    ["v1.2.3", 1.2],
    ["none", null],
  ];
  for (const [text, expected] of cases) assert.equal(toNumber(text), expected, text);
});

Deno.test("a date rule reads strings and Unix timestamps, rejects junk", () => {
  const toDate = (text: string) => applyType(text, "date", "https://ex.test/");
  assert.equal(toDate("2024-03-05"), "2024-03-05T00:00:00.000Z");
  assert.equal(toDate("1709632800"), "2024-03-05T10:00:00.000Z");
  assert.equal(toDate("1709632800000"), "2024-03-05T10:00:00.000Z");
  assert.equal(toDate("Tue, 05 Mar 2024 10:00:00 GMT"), "2024-03-05T10:00:00.000Z");
  assert.equal(toDate("12345"), null);
  assert.equal(toDate("yesterday-ish"), null);
});

Deno.test("applyType() keeps only values of the declared shape", () => {
  const base = "https://ex.test/a/";
  assert.equal(applyType("ftp://ex.test/x", "url", base), null);
  assert.deepEqual(applyType("//cdn.test/v.mp4", "video", base), {
    ...media("https://cdn.test/v.mp4", "mp4"),
    duration: null,
    duration_pretty: null,
  });
  assert.equal(applyType("not an email", "email", base), null);
  assert.equal(applyType("https://ex.test/me", "author", base), null);
  // The lang field's normaliser reads language names too (`<meta name="language" content=
  // "English">`); a custom lang rule now reads them as the field does (issue 16, item 3).
  assert.equal(applyType("english", "lang", base), "en");
  assert.equal(applyType("not a language", "lang", base), null);
  assert.equal(applyType("maybe", "boolean", base), null);
  assert.equal(applyType("  ", "string", base), null);
  assert.equal(applyType("[1]", "object", base)?.toString(), "1");
});

Deno.test("a typed rule is its field's normaliser: the same text gives the field's value", () => {
  const url = "https://news.example/2017/story";
  const page = (lang: string, stated: string, title: string) =>
    `<html lang="${lang}"><head><title>${title}</title>
    <meta property="article:published_time" content="${stated}"></head><body></body></html>`;
  const rules: CustomRules = {
    date: [{ selector: ['meta[property="article:published_time"]'], type: ["date"] }],
    title: [{ selector: ["title"], type: ["title"] }],
  };
  for (
    const [lang, stated, date] of [
      ["en", "June 29, 2017 2:14 PM ET", "2017-06-29T19:14:00.000Z"],
      // A British page writes the day first, as the date field reads it.
      ["en-GB", "05/06/2019", "2019-06-05T00:00:00.000Z"],
    ] as const
  ) {
    const html = page(lang, stated, `It's "the" story`);
    const field = extract(html, url);
    const custom = runRules(html, url, rules);
    assert.equal(field.date, date, stated);
    assert.equal(custom.date, field.date, stated);
    assert.equal(custom.title, field.title);
  }
});
