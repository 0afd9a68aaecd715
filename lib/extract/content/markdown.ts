/**
 * The `markdown` view: the page's main content as CommonMark, for people feeding language
 * models. The main content is chosen (and its chrome removed) by extractMainContent.
 */
import type { AnyNode } from "domhandler";
import { attr, baseUrl, collapse, type Document, select, textOf } from "../dom/mod.ts";
import { headingText, renderMarkdown } from "./markdown_render.ts";
import { extractMainContent } from "./mod.ts";

/**
 * Main content of the page fetched from `url` as Markdown. The page title is the first heading:
 * a `# title` line is added unless the content's first heading is an h1 or the title itself.
 * `content` is the main content when the caller has it already (it changes the DOM: see
 * extractMainContent); `base`, the page's base URL (baseUrl) when the caller knows it already.
 */
export function documentToMarkdown(
  doc: Document,
  url: string,
  content: AnyNode = extractMainContent(doc),
  base: string = baseUrl(doc, url),
): string {
  // The chrome is gone from `content` already; the renderer's own chrome rule would drop more.
  const { markdown, firstHeading, firstHeadingText } = renderMarkdown(content, { baseUrl: base });
  let title = firstHeading === 1 ? null : pageTitle(doc);
  // The title written as a lower heading is the first heading already: not twice.
  if (title && sameText(title, firstHeadingText)) title = null;
  const page = title ? `# ${headingText(title)}\n\n${markdown}` : markdown;
  return page.trim();
}

/** One element (or the whole page, for a rule without selector) as Markdown, nothing dropped. */
export function nodeToMarkdown(node: AnyNode, options: { baseUrl: string }): string {
  return renderMarkdown(node, { baseUrl: options.baseUrl }).markdown.trim();
}

function sameText(a: string, b: string): boolean {
  return collapse(a).toLowerCase() === collapse(b).toLowerCase();
}

function pageTitle(doc: Document): string | null {
  const title = select(doc, "title");
  const text = title ? textOf(title) : "";
  if (text) return text;
  const og = select(doc, 'meta[property="og:title"]');
  return og ? collapse(attr(og, "content") ?? "") || null : null;
}
