/** The field normalisers: dates, languages, URLs, quotes, site names, and the rule runner. */
import assert from "node:assert/strict";
import { dateFromUrl, toIsoDate } from "../../lib/extract/fields/date_parse.ts";
import { toLang } from "../../lib/extract/fields/lang_codes.ts";
import { manifestUrl } from "../../lib/extract/fields/manifest.ts";
import { baseFor, resolveUrl } from "../../lib/extract/fields/resolve.ts";
import { firstOf } from "../../lib/extract/fields/rules.ts";
import { contextFor } from "../../lib/extract/mod.ts";
import { stripSiteName } from "../../lib/extract/fields/site_name.ts";
import { smartQuotes } from "../../lib/extract/fields/text.ts";

Deno.test("toIsoDate() reads the date shapes pages use", async (t) => {
  const cases: [unknown, string | null][] = [
    ["2017-06-29", "2017-06-29T00:00:00.000Z"],
    ["2020-12-23T22:36:00-05:00", "2020-12-24T03:36:00.000Z"],
    ["2016-05-24T18:00:03.899Z", "2016-05-24T18:00:03.899Z"],
    ["Tue, 24 May 2016 18:00:03 GMT", "2016-05-24T18:00:03.000Z"],
    ["Updated June 29, 2017 2:14 PM ET", "2017-06-29T19:14:00.000Z"],
    ["12 Jan, 2016, 10.34PM IST", "2016-01-12T17:04:00.000Z"],
    ["2016/04/08", "2016-04-08T00:00:00.000Z"],
    ["2015", "2015-01-01T00:00:00.000Z"],
    [1497052800, "2017-06-10T00:00:00.000Z"],
    [1497052800000, "2017-06-10T00:00:00.000Z"],
    ["1497052800", "2017-06-10T00:00:00.000Z"],
    // offsets in every form sites write
    ["2020-12-23T22:36:00-0500", "2020-12-24T03:36:00.000Z"],
    ["2020-12-23T22:36:00-05", "2020-12-24T03:36:00.000Z"],
    ["2020-12-23T22:36:00-500", "2020-12-24T03:36:00.000Z"],
    ["2020-12-23T22:36:00+0530", "2020-12-23T17:06:00.000Z"],
    ["Tue, 24 May 2016 18:00:03 -0500", "2016-05-24T23:00:03.000Z"],
    // local formats
    ["2019年2月21日", "2019-02-21T00:00:00.000Z"],
    ["2019年02月21日 10時30分", "2019-02-21T10:30:00.000Z"],
    ["2019년 2월 21일", "2019-02-21T00:00:00.000Z"],
    ["2019.02.21", "2019-02-21T00:00:00.000Z"],
    ["21.02.2019", "2019-02-21T00:00:00.000Z"],
    ["2012 Nov 26", "2012-11-26T00:00:00.000Z"],
    ["February 30, 2017", null],
    ["yesterday", null],
    ["", null],
    [null, null],
  ];
  for (const [input, want] of cases) {
    await t.step(`${JSON.stringify(input)} -> ${want}`, () => assert.equal(toIsoDate(input), want));
  }
});

Deno.test("toIsoDate() reads day and month that could swap as the page's language says", () => {
  assert.equal(toIsoDate("05/06/2019"), "2019-05-06T00:00:00.000Z");
  assert.equal(toIsoDate("05/06/2019", { dayFirst: true }), "2019-06-05T00:00:00.000Z");
  assert.equal(toIsoDate("05.06.2019"), "2019-06-05T00:00:00.000Z");
  assert.equal(toIsoDate("05.06.2019", { dayFirst: false }), "2019-05-06T00:00:00.000Z");
  // a part over 12 decides by itself
  assert.equal(toIsoDate("21/02/2019"), "2019-02-21T00:00:00.000Z");
  assert.equal(toIsoDate("02/21/2019", { dayFirst: true }), "2019-02-21T00:00:00.000Z");
});

Deno.test("dateFromUrl() finds dates in paths only", () => {
  assert.equal(dateFromUrl("https://a.example/2016/05/24/story"), "2016-05-24T00:00:00.000Z");
  assert.equal(dateFromUrl("https://a.example/news/2016-05-24-story"), "2016-05-24T00:00:00.000Z");
  assert.equal(dateFromUrl("https://a.example/blog/20160524/x"), "2016-05-24T00:00:00.000Z");
  assert.equal(dateFromUrl("https://a.example/story?date=2016/05/24"), null);
  assert.equal(dateFromUrl("https://a.example/item/123456789"), null);
});

Deno.test("toLang() normalises tags, 3-letter codes and names to ISO 639-1", () => {
  assert.equal(toLang("en-US"), "en");
  assert.equal(toLang("pt_BR"), "pt");
  assert.equal(toLang("ENG"), "en");
  assert.equal(toLang("ger"), "de");
  assert.equal(toLang("English"), "en");
  assert.equal(toLang("xx"), null);
  assert.equal(toLang("klingon"), null);
  assert.equal(toLang(""), null);
});

Deno.test("resolveUrl() makes absolute http(s) URLs", async (t) => {
  const ctx = { url: "https://site.example/a/b", base: "https://site.example/a/b" };
  await t.step("relative and root-relative", () => {
    assert.equal(resolveUrl("c.png", ctx), "https://site.example/a/c.png");
    assert.equal(resolveUrl("/c.png", ctx), "https://site.example/c.png");
  });
  await t.step("protocol-relative takes the page's scheme, not the base's", () => {
    const http = { url: "http://site.example/", base: "https://cdn.example/" };
    assert.equal(resolveUrl("//img.example/x.jpg", http), "http://img.example/x.jpg");
  });
  await t.step("<base href> is resolved against the page", () => {
    assert.equal(baseFor("https://site.example/a/b", "/static/"), "https://site.example/static/");
    assert.equal(baseFor("https://site.example/a/b", "javascript:x"), "https://site.example/a/b");
  });
  await t.step("needless escapes are undone, as Microlink's URLs read", () => {
    assert.equal(resolveUrl("/a_%28b%29.jpg", ctx), "https://site.example/a_(b).jpg");
  });
  await t.step("junk is refused", () => {
    for (const v of ["", "#top", "javascript:alert(1)", "data:image/png;base64,AA", "http://x"]) {
      assert.equal(resolveUrl(v, ctx), null, v);
    }
  });
});

Deno.test("smartQuotes() turns straight quotes typographic", () => {
  assert.equal(smartQuotes(`It's "fine"`), "It\u2019s \u201cfine\u201d");
  assert.equal(smartQuotes("the '90s"), "the \u201990s");
  assert.equal(smartQuotes("'quoted'"), "\u2018quoted\u2019");
  assert.equal(smartQuotes("no quotes"), "no quotes");
});

Deno.test("stripSiteName() cuts only the declared site name from a title", () => {
  assert.equal(stripSiteName("Story | Site", "Site"), "Story");
  assert.equal(stripSiteName("Site - Story", "Site"), "Story");
  assert.equal(stripSiteName("Story | Other", "Site"), "Story | Other");
  assert.equal(stripSiteName("Story | Site", null), "Story | Site");
});

Deno.test("firstOf() treats a throwing rule as yielding nothing", () => {
  const ctx = contextFor("<title>ok</title>", "https://t.example/");
  const value = firstOf(
    [
      () => {
        throw new Error("broken rule");
      },
      ({ rec }) => rec.title,
    ],
    (v) => (typeof v === "string" ? v : null),
    ctx,
  );
  assert.equal(value, "ok");
});

Deno.test("manifestUrl() gives the absolute web app manifest URL for the logo hook", () => {
  const ctx = contextFor(
    `<link rel="manifest" href="/site.webmanifest">`,
    "https://m.example.com/a/b",
  );
  assert.equal(manifestUrl(ctx), "https://m.example.com/site.webmanifest");
  assert.equal(manifestUrl(contextFor("<p>none</p>", "https://m.example.com/")), null);
});
