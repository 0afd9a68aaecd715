import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import {
  countWords,
  readingMinutes,
  withFrontMatter,
  yamlString,
} from "../../lib/extract/content/front_matter.ts";

/** The block parsed by a real YAML parser, and the text after it. */
function parsed(markdown: string): { meta: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---(?:\n\n|$)/.exec(markdown);
  assert.ok(match, markdown);
  return { meta: parseYaml(match[1]!), body: markdown.slice(match[0].length) };
}

Deno.test("yamlString() round-trips through a YAML parser, whatever the text", () => {
  const hostile = [
    'He said: "yes"',
    "it's: 'quoted'",
    "two\nlines\r\nand a\ttab",
    "---",
    "line\n---\nafter",
    "# not a comment",
    "- not a list",
    "key: value",
    "yes",
    "null",
    "2024-01-01",
    "@at `tick` *star* &anchor !tag |pipe >fold %pct",
    "back\\slash \\n not a newline",
    "\u2028line sep\u2029para sep\u0085nel\u007fdel\ufeffbom\u0000nul",
    "emoji 🦀 and CJK 漢字",
    " leading and trailing ",
  ];
  for (const text of hostile) {
    const yaml = `title: ${yamlString(text)}`;
    assert.equal(yaml.split("\n").length, 1, `one line: ${yaml}`);
    assert.deepEqual(parseYaml(yaml), { title: text }, yaml);
  }
});

Deno.test("withFrontMatter() lists the fields present, then the counts", async (t) => {
  await t.step("fields in order, absent and empty ones left out", () => {
    const out = withFrontMatter("# Title\n\nbody", {
      title: "A: b",
      description: "",
      author: null,
      publisher: "Pub",
      date: "2024-03-05T10:00:00.000Z",
      url: "https://ex.test/a",
    }, 3);
    assert.equal(
      out,
      [
        "---",
        'title: "A: b"',
        'publisher: "Pub"',
        'date: "2024-03-05T10:00:00.000Z"',
        'url: "https://ex.test/a"',
        "word_count: 3",
        "reading_time: 1",
        "---",
        "",
        "# Title",
        "",
        "body",
      ].join("\n"),
    );
    assert.deepEqual(parsed(out).meta, {
      title: "A: b",
      publisher: "Pub",
      date: "2024-03-05T10:00:00.000Z",
      url: "https://ex.test/a",
      word_count: 3,
      reading_time: 1,
    });
  });
  await t.step("a title that is a whole front matter block stays one value", () => {
    const title = '---\ntitle: "x"\n---\n# evil';
    const { meta, body } = parsed(withFrontMatter("body", { title }, 1));
    assert.equal(meta.title, title);
    assert.equal(body, "body");
  });
  await t.step("an empty body: the block alone", () => {
    assert.equal(withFrontMatter("", {}, 0), "---\nword_count: 0\nreading_time: 0\n---");
  });
});

Deno.test("countWords() counts what a reader reads", () => {
  assert.equal(countWords(""), 0);
  assert.equal(countWords("# Hello, world!\n\n- one\n- two"), 4);
  // Link and image destinations are not words; their text is.
  assert.equal(
    countWords(
      '[the docs](https://ex.test/a/b/c-d?e=f "Title here") ![a cat](https://ex.test/c.png)',
    ),
    4,
  );
  // Scripts without spaces between words are split at word boundaries.
  assert.ok(countWords("日本語のテキストです") >= 3);
  assert.equal(countWords("--- *** | --- |"), 0);
});

Deno.test("readingMinutes() rounds up at 200 words a minute", () => {
  assert.equal(readingMinutes(0), 0);
  assert.equal(readingMinutes(1), 1);
  assert.equal(readingMinutes(200), 1);
  assert.equal(readingMinutes(201), 2);
});
