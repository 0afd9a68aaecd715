/** `deno task extract`: the CLI prints the default fields of a saved page as JSON. */
import assert from "node:assert/strict";

const CLI = new URL("../../lib/cli/extract.ts", import.meta.url).pathname;
const PAGE = new URL("../fixtures/pages/og.html", import.meta.url).pathname;

async function run(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", CLI, ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("extract CLI prints the default fields with first media candidates", async () => {
  const { code, stdout } = await run("--url", "https://example.com/2019/01/02/page", PAGE);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout), {
    title: "It\u2019s the \u201cOG\u201d title",
    description: "The OG description\u2026",
    lang: "pt",
    author: "Jane Doe",
    publisher: "Example Site",
    date: "2021-03-04T03:06:07.000Z",
    url: "https://example.com/canonical",
    image: "https://cdn.example.com/cover-secure.jpg",
    logo: "https://example.com/brand/logo.png",
    audio: null,
    video: null,
  });
});

Deno.test("extract CLI rejects a missing or invalid --url", async () => {
  const missing = await run(PAGE);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /usage: deno task extract --url/);
  const bad = await run("--url", "not a url", PAGE);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /The URL `not a url` is not valid/);
});
