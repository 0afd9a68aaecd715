import assert from "node:assert/strict";
import { parseDocument } from "htmlparser2";
import { type ChildNode, type Element, isTag } from "domhandler";
import { clean, clip, escape, fit, httpUrl, pixels } from "../../lib/oembed_endpoint/_markup.ts";
import { type CardContent, renderCard, THUMBNAIL } from "../../lib/oembed_endpoint/card.ts";
import { toXml } from "../../lib/oembed_endpoint/serialize.ts";
import type { MediaObject } from "../../lib/util/payload_types.ts";

const media = (url: string, width: number | null, height: number | null): MediaObject => ({
  url,
  type: "png",
  size: 1,
  size_pretty: "1 B",
  width,
  height,
});

const BASE: CardContent = {
  url: "https://a.example/post",
  title: "A title",
  description: "A description.",
  publisher: "A publisher",
  lang: "en",
  image: media("https://a.example/wide.png", 1200, 630),
  logo: media("https://a.example/logo.png", 32, 32),
};

const NO_LIMITS = { maxWidth: null, maxHeight: null };

/** Every element of the markup, as a browser's parser would build them, in document order. */
function tree(markup: string): Element[] {
  const out: Element[] = [];
  const walk = (nodes: readonly ChildNode[]) => {
    for (const node of nodes) {
      if (isTag(node)) {
        out.push(node);
        walk(node.children);
      }
    }
  };
  walk(parseDocument(markup).children);
  return out;
}

const textOf = (element: Element): string =>
  element.children.map((c) => ("data" in c ? c.data : textOf(c as Element))).join("");

Deno.test("escape(), clip(), fit(), httpUrl(), pixels()", async (t) => {
  await t.step("escape() covers text and both attribute quotes; strips controls", () => {
    assert.equal(
      escape(`<a href="x" title='y'>&\u0001\u0000`),
      "&lt;a href=&quot;x&quot; title=&apos;y&apos;&gt;&amp;",
    );
    assert.equal(clean("a\uD800b\uFFFEc\td\ne"), "a\uFFFDbc\td\ne");
  });
  await t.step("clip() counts user-perceived characters and marks the cut", () => {
    assert.equal(clip("  short  ", 10), "short");
    assert.equal(clip("abcdef", 3), "abc…");
    const family = "👨‍👩‍👧";
    assert.equal(clip(family.repeat(4), 2), `${family}${family}…`, "never splits a cluster");
    const huge = "x".repeat(10 * 1024 * 1024);
    assert.equal(clip(huge, 300).length, 301);
  });
  await t.step("fit() scales down to both limits, keeps proportions, never scales up", () => {
    const box = { width: 1200, height: 630 };
    assert.deepEqual(fit(box, { maxWidth: 600, maxHeight: null }), { width: 600, height: 315 });
    assert.deepEqual(fit(box, { maxWidth: 600, maxHeight: 100 }), { width: 190, height: 100 });
    assert.deepEqual(fit(box, { maxWidth: 5000, maxHeight: 5000 }), box);
  });
  await t.step("httpUrl() keeps http(s) only and serialises what it keeps", () => {
    assert.equal(httpUrl('https://a.example/a b"c<d>'), "https://a.example/a%20b%22c%3Cd%3E");
    assert.equal(httpUrl("/rel", "https://a.example/x/"), "https://a.example/rel");
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "//a.example", "", 42, null]) {
      assert.equal(httpUrl(bad), null, String(bad));
    }
  });
  await t.step("pixels() reads positive numbers and numeric strings only", () => {
    assert.deepEqual(
      [pixels(640), pixels("360"), pixels(" 12.6 "), pixels("100%"), pixels(0), pixels(-5)],
      [640, 360, 13, null, null, null],
    );
    assert.equal(pixels(Infinity), null);
  });
});

Deno.test("renderCard() chooses its layout from the image and the limits", () => {
  assert.equal(renderCard(BASE, NO_LIMITS).layout, "hero");
  const square = { ...BASE, image: media("https://a.example/s.png", 300, 300) };
  assert.equal(renderCard(square, NO_LIMITS).layout, "thumbnail");
  const unsized = { ...BASE, image: media("https://a.example/u.png", null, null) };
  assert.equal(renderCard(unsized, NO_LIMITS).layout, "thumbnail");
  assert.equal(renderCard({ ...BASE, image: null }, NO_LIMITS).layout, "text");
  const script = { ...BASE, image: media("javascript:alert(1)", 1200, 630) };
  assert.equal(renderCard(script, NO_LIMITS).layout, "text");
  const short = renderCard(BASE, { maxWidth: 320, maxHeight: 200 });
  assert.deepEqual([short.layout, short.width, short.height], ["thumbnail", 320, 156]);
  assert.equal(renderCard(BASE, { maxWidth: 320, maxHeight: 100 }).height, 100);
  const wide = renderCard(BASE, { maxWidth: 2000, maxHeight: null });
  assert.equal(wide.width, 600, "a card is never wider than CARD_WIDTH");
});

Deno.test("renderCard() writes inert markup whatever the text holds", () => {
  const hostile: CardContent = {
    ...BASE,
    url: 'https://a.example/p?q="><script>alert(1)</script>',
    title: `"><img src=x onerror=alert(1)> 'quoted' & <b>bold</b>`,
    description: `</span></a><script>alert(2)</script>`,
    publisher: `<style>*{display:none}</style>`,
    image: media('https://a.example/i.png?"onerror="alert(3)', 300, 300),
  };
  const card = renderCard(hostile, NO_LIMITS);
  const elements = tree(card.html);
  assert.deepEqual(
    [...new Set(elements.map((e) => e.name))].sort(),
    ["a", "img", "span"],
  );
  for (const element of elements) {
    for (const name of Object.keys(element.attribs)) assert.ok(!name.startsWith("on"), name);
  }
  const [link] = elements;
  assert.equal(link!.attribs.href, "https://a.example/p?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E");
  assert.equal(link!.attribs.title, hostile.title);
  assert.equal(link!.attribs.rel, "noopener noreferrer");
  const text = textOf(link!);
  assert.ok(text.includes(hostile.title!));
  assert.ok(text.includes(hostile.description!));
  assert.ok(text.includes(hostile.publisher!));
  const image = elements.find((e) => e.name === "img" && e.attribs.width === `${THUMBNAIL}`)!;
  assert.equal(image.attribs.src, "https://a.example/i.png?%22onerror=%22alert(3)");
});

Deno.test("renderCard() falls back to the host; refuses a non-http page", () => {
  const bare = renderCard({ ...BASE, title: null, publisher: null, description: null }, NO_LIMITS);
  const spans = tree(bare.html).filter((e) => e.name === "span").map(textOf);
  assert.ok(spans.includes("a.example"));
  assert.throws(() => renderCard({ ...BASE, url: "javascript:alert(1)" }, NO_LIMITS), TypeError);
});

Deno.test("toXml() escapes every value and leaves out what XML cannot hold", () => {
  const xml = toXml({ version: "1.0", type: "rich", html: `<a href="x">&</a>\u0001`, width: 3 });
  assert.equal(
    xml,
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<oembed>\n' +
      "  <version>1.0</version>\n  <type>rich</type>\n" +
      "  <html>&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;</html>\n  <width>3</width>\n" +
      "</oembed>\n",
  );
});
