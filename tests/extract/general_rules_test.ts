/**
 * The round-two general rules, each on its own small hand-written page
 * (tests/fixtures/pages/rules/), with the answer the rule exists for.
 */
import assert from "node:assert/strict";
import { extract, type Extracted } from "../../lib/extract/mod.ts";
import { unwrapScript } from "../../lib/extract/fields/jsonld.ts";
import { normaliseImage } from "../../lib/extract/fields/image.ts";
import { normaliseAuthor } from "../../lib/extract/fields/author.ts";
import { contextFor } from "../../lib/extract/mod.ts";

const page = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/pages/rules/${name}.html`, import.meta.url));

const read = (name: string, url = "https://example.com/story") => extract(page(name), url);

function check(got: Extracted, want: Partial<Extracted>): void {
  for (const [key, value] of Object.entries(want)) {
    assert.deepEqual(got[key as keyof Extracted], value, `field ${key}`);
  }
}

Deno.test("JSON-LD inside CDATA or comment wrappers is read like plain JSON-LD", async (t) => {
  await t.step("//<![CDATA[ ... //]]>: publisher, author and date", () => {
    check(read("jsonld_cdata"), {
      author: "Cora Data",
      publisher: "Wrapped Times",
      date: "2018-04-05T06:07:08.000Z",
    });
  });
  await t.step("<!-- ... --> and <![CDATA[ ... ]]>", () => {
    check(read("jsonld_comment"), {
      title: "Commented headline",
      author: "Com Ment",
      publisher: "Comment Weekly",
      date: "2017-03-02T00:00:00.000Z",
      lang: "nl",
    });
  });
  await t.step("every wrapper form, nested too; JSON that only contains one stays", () => {
    for (
      const wrapped of [
        '<![CDATA[ {"a":1} ]]>',
        '//<![CDATA[\n{"a":1}\n//]]>',
        '/*<![CDATA[*/{"a":1}/*]]>*/',
        '<!--\n{"a":1}\n-->',
        '<!-- {"a":1} // -->',
        ' // <![CDATA[\n <!-- {"a":1} --> \n // ]]>',
      ]
    ) assert.equal(unwrapScript(wrapped), '{"a":1}', wrapped);
    assert.equal(unwrapScript('{"a":"<!-- x -->"}'), '{"a":"<!-- x -->"}');
  });
});

Deno.test("dates: the page's metadata first, local formats, plausible values only", async (t) => {
  await t.step('<meta http-equiv="last-modified"> (RFC 2822 with a -0500 offset)', () => {
    check(read("date_last_modified"), { date: "2016-05-24T23:00:03.000Z" });
  });
  await t.step("a date from body text never beats one from metadata", () => {
    check(read("date_meta_over_text"), { date: "2019-01-02T03:04:05.000Z" });
  });
  await t.step("2019年2月21日 10:30 in a byline", () => {
    check(read("date_ja"), { date: "2019-02-21T10:30:00.000Z" });
  });
  await t.step("05/06/2019 reads day first on an en-GB page, month first on en-US", () => {
    check(read("date_day_first"), { date: "2019-06-05T00:00:00.000Z" });
    check(read("date_month_first"), { date: "2019-05-06T00:00:00.000Z" });
  });
  await t.step("a date far ahead or before 1995 is not a date", () => {
    check(read("date_implausible"), { date: "2016-07-08T00:00:00.000Z" });
  });
});

Deno.test("authors: bylines cleaned, interface and links refused, weak answers last", async (t) => {
  await t.step('"ByJane Doe": the glued By is taken off', () => {
    check(read("author_glued_by"), { author: "Jane Doe" });
  });
  await t.step("interface link texts, URLs and social profile links are never an author", () => {
    check(read("author_interface"), { author: "Jane Marie Doe" });
    for (const text of ["View author archive", "Follow @jdoe", "More by", "Posted by"]) {
      assert.equal(normaliseAuthor(text), null, text);
    }
    assert.equal(normaliseAuthor("https://jane.example.org/about"), null);
    assert.equal(normaliseAuthor("Byron Gale"), "Byron Gale");
  });
  await t.step("meta author equal to the site name gives way to the person", () => {
    check(read("author_site_name"), { author: "Sam Writer" });
  });
  await t.step("the site name still beats a Twitter handle when nobody else is named", () => {
    check(read("author_site_only"), { author: "The Daily Example" });
  });
  await t.step("a handle (@name, twitter:creator) comes after every byline rule", () => {
    check(read("author_handle_last"), { author: "Jane Doe" });
    const handleOnly = '<meta name="twitter:creator" content="@jdoe">';
    assert.equal(extract(handleOnly, "https://example.com/").author, "jdoe");
  });
});

Deno.test('property="dc:title og:title" counts for each name', () => {
  check(read("meta_multi_name"), {
    title: "One tag, two names",
    description: "Shared description",
  });
});

Deno.test("Parse.ly metadata is read as a late fallback", async (t) => {
  await t.step("parsely-title, -author, -pub-date, -image-url", () => {
    check(read("parsely"), {
      title: "Parsely title",
      author: "Pat Parse",
      date: "2020-02-03T04:05:06.000Z",
      image: ["https://cdn.example.com/parsely.jpg"],
    });
  });
  await t.step('<meta name="parsely-page"> JSON: title, authors, date, image, link', () => {
    check(read("parsely_page"), {
      title: "From the page JSON",
      author: "Ann Author",
      date: "2021-05-06T07:08:09.000Z",
      image: ["https://example.com/img/p1.jpg"],
      url: "https://example.com/p/1",
    });
  });
  await t.step("page metadata still comes first", () => {
    const html = `<meta property="og:title" content="OG first">${page("parsely")}`;
    assert.equal(extract(html, "https://example.com/").title, "OG first");
  });
});

Deno.test("images: srcset is never a URL; content images win over site chrome", async (t) => {
  await t.step("an <img> with only srcset gives its widest candidate", () => {
    check(read("image_srcset"), { image: ["https://example.com/img/story-1200.jpg"] });
  });
  await t.step("a srcset value in metadata gives its largest candidate", () => {
    const ctx = contextFor("", "https://example.com/a/");
    assert.equal(normaliseImage("s.jpg 1x, l.jpg 2x", ctx), "https://example.com/a/l.jpg");
    assert.equal(
      normaliseImage(
        "https://c.example/w_300,h_200/a.jpg 300w, https://c.example/w_900/a.jpg 900w",
        ctx,
      ),
      "https://c.example/w_900/a.jpg",
    );
  });
  await t.step(
    "header/nav/footer, logo/icon/avatar/sprite/badge/pixel and tiny images are out",
    () => {
      check(read("image_chrome"), { image: ["https://example.com/img/lead-photo.jpg"] });
    },
  );
});

Deno.test("citation_* metadata (scholarly pages, any host) comes first", () => {
  check(read("citation", "https://journal.example.org/articles/1"), {
    title: "Molecular structure of examples",
    author: "Watson, James D.",
    publisher: "Example Publishing Group",
    // a work's date may predate the web
    date: "1953-04-25T00:00:00.000Z",
  });
});
