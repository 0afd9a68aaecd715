/**
 * `deno task extract --url <page-url> <file.html>`: prints the default fields extracted from a
 * saved page as JSON (first candidate of each media list, or null). No network.
 */
import { parseArgs } from "node:util";
import { decodeHtml } from "../fetch/decode.ts";
import { extract } from "../extract/mod.ts";

const USAGE = "usage: deno task extract --url <page-url> <file.html>";

/** The default fields for `file` saved from `url`, media lists reduced to their first URL. */
export async function extractFile(file: string, url: string): Promise<Record<string, unknown>> {
  const html = decodeHtml(await Deno.readFile(file), null);
  const e = extract(html, url);
  return {
    title: e.title,
    description: e.description,
    lang: e.lang,
    author: e.author,
    publisher: e.publisher,
    date: e.date,
    url: e.url,
    image: e.image[0] ?? null,
    logo: e.logo[0] ?? null,
    audio: e.audio[0] ?? null,
    video: e.video[0] ?? null,
  };
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { url: { type: "string" } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!values.url || !file) {
    await Deno.stderr.write(new TextEncoder().encode(`${USAGE}\n`));
    return 2;
  }
  if (!URL.canParse(values.url)) {
    await Deno.stderr.write(new TextEncoder().encode(`The URL \`${values.url}\` is not valid.\n`));
    return 2;
  }
  const out = await extractFile(file, values.url);
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(out, null, 2) + "\n"));
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
