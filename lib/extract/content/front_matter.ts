/**
 * YAML front matter for Markdown views, as Microlink's url-to-markdown prepends it with `meta`
 * on: the page's normalised fields, then how long the body is. Every string is double-quoted
 * with every control and line-break character escaped, so no title (colons, quotes, newlines,
 * a line of `---`) can end the block early or be read as YAML syntax.
 */
import { spend } from "../dom/budget.ts";

/** The metadata fields the block carries, in the order it lists them. */
export const FRONT_MATTER_FIELDS = [
  "title",
  "description",
  "author",
  "publisher",
  "date",
  "url",
] as const;

export type FrontMatterField = typeof FRONT_MATTER_FIELDS[number];

/** Words a minute an adult reads on screen (the figure most reading-time estimates use). */
export const WORDS_PER_MINUTE = 200;

/**
 * `markdown` with a front matter block of `fields` (absent or empty ones left out) on top;
 * `words` is countWords(markdown), counted where the Markdown was made (off the main thread).
 */
export function withFrontMatter(
  markdown: string,
  fields: Partial<Record<FrontMatterField, unknown>>,
  words: number,
): string {
  const lines = ["---"];
  for (const name of FRONT_MATTER_FIELDS) {
    const value = fields[name];
    if (typeof value === "string" && value.trim()) lines.push(`${name}: ${yamlString(value)}`);
  }
  lines.push(`word_count: ${words}`);
  lines.push(`reading_time: ${readingMinutes(words)}`);
  lines.push("---");
  return markdown ? `${lines.join("\n")}\n\n${markdown}` : lines.join("\n");
}

/** Whole minutes to read `words` words: at least one for any text, none for none. */
export function readingMinutes(words: number): number {
  return words === 0 ? 0 : Math.ceil(words / WORDS_PER_MINUTE);
}

const SEGMENTER = new Intl.Segmenter("und", { granularity: "word" });
/** A link or image destination: its URL is not words of the text. */
const DESTINATION = /\]\([^)\s]*(?:\s+"(?:[^"\\]|\\.)*")?\)/g;

/** Words a reader reads in `markdown` (link targets and markup aside); CJK by word breaks. */
export function countWords(markdown: string): number {
  let words = 0;
  for (const segment of SEGMENTER.segment(markdown.replace(DESTINATION, "]"))) {
    spend();
    if (segment.isWordLike) words++;
  }
  return words;
}

/**
 * A YAML double-quoted scalar. JSON's escapes are a subset of YAML's; what JSON leaves raw but
 * YAML reads as a line break or forbids (U+0085, U+2028, U+2029, DEL, C1 controls, a BOM) is
 * escaped too.
 */
export function yamlString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
