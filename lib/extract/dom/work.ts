/**
 * The DOM-based extras of a request (custom `data` rules, the `markdown` and `text` views) from
 * one parse, under a budget that every loop over the DOM checks (a Budget). Small
 * pages run here; the rest in the bounded pool of worker threads (DomWorkers),
 * because a full DOM of a page of several MB takes a second or more that must not stall others.
 */
import { type Budget, withBudget } from "./budget.ts";
import { type CustomMedia, runRulesOnDocument } from "../custom/mod.ts";
import type { CustomRules } from "../custom/rules.ts";
import { type Document, parseHtml } from "./mod.ts";
import { documentToMarkdown } from "../content/markdown.ts";
import { extractMainContent } from "../content/mod.ts";
import { renderPlainText } from "../content/plain_text.ts";
import { countWords } from "../content/front_matter.ts";
import { type Extracted, type ExtractOptions, extractRecord, probesFor } from "../mod.ts";
import { PARSER_OPTIONS, recordCollector } from "../stream/collect.ts";
import { parseDocumentWith } from "../stream/html_parser.ts";

export interface DomWork {
  html: string;
  url: string;
  rules: CustomRules | null;
  markdown: boolean;
  /** The main content as plain text. */
  text?: boolean;
  /** Values of the rules' `evaluate` sources, computed in the browser. */
  evaluated?: unknown[];
  /** Which Markdown gets front matter, so its words are counted here, off the main thread. */
  frontMatter?: { markdown: boolean; wholePage: boolean };
  /**
   * The default fields too (extract() with these options), read from the same parse: one pass
   * over the page and one worker job instead of two.
   */
  fields?: ExtractOptions;
}

export interface DomResult {
  /** The default fields, when the work asked for them. */
  extracted: Extracted | null;
  custom: Record<string, unknown>;
  /** The media values inside `custom`, by reference, for the probes to complete. */
  customMedia: CustomMedia[];
  markdown: string | null;
  text: string | null;
  /** Words of `markdown`, when it gets front matter. */
  markdownWords: number | null;
  /** Words of each `custom` value that is the whole page as Markdown, when those get it. */
  wholePageWords: Record<string, number>;
}

/**
 * Above this many characters of HTML the work moves off the main thread. Below it, a page's
 * own steps take a few milliseconds (each is linear in the page); a caller's selector may not,
 * so the main thread gives it a slice only (DomWorkers).
 */
export const WORKER_THRESHOLD = 16 * 1024;

/** The work itself, synchronous; throws BudgetExceeded once `budget` is spent. */
export function domWorkSync(work: DomWork, budget?: Budget): DomResult {
  const run = (): DomResult => {
    const { doc, extracted, base } = parse(work);
    const wholePage = new Set<string>();
    const media: CustomMedia[] = [];
    const custom = work.rules
      ? runRulesOnDocument(doc, {
        url: work.url,
        rules: work.rules,
        evaluated: work.evaluated,
        wholePageMarkdown: wholePage,
        media,
      })
      : {};
    // Last: finding the main content removes the chrome from the DOM the rules read.
    const content = work.markdown || work.text ? extractMainContent(doc) : null;
    const markdown = content && work.markdown
      ? documentToMarkdown(doc, work.url, content, base)
      : null;
    const wholePageWords: Record<string, number> = {};
    if (work.frontMatter?.wholePage) {
      for (const name of wholePage) {
        const value = custom[name];
        if (typeof value === "string") wholePageWords[name] = countWords(value);
      }
    }
    const counted = markdown !== null && work.frontMatter?.markdown;
    return {
      extracted,
      custom,
      customMedia: media,
      markdown,
      text: content && work.text ? renderPlainText(content) : null,
      markdownWords: counted ? countWords(markdown) : null,
      wholePageWords,
    };
  };
  return budget ? withBudget(budget, run) : run();
}

/**
 * The page's DOM, and its default fields from the same parse when the work asks for them. The
 * record of that parse also tells a page without any <base href>: its base URL is its own,
 * with no walk of the DOM to find that out.
 */
function parse(
  work: DomWork,
): { doc: Document; extracted: Extracted | null; base: string | undefined } {
  if (!work.fields) return { doc: parseHtml(work.html), extracted: null, base: undefined };
  const record = recordCollector(probesFor(work.url));
  const doc = parseDocumentWith(work.html, record, PARSER_OPTIONS);
  const rec = record.finish();
  const base = rec.baseHref ? undefined : work.url;
  return { doc, extracted: extractRecord(rec, work.url, work.fields), base };
}
