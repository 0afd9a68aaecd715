/**
 * The DOM-based extras of a request (custom `data` rules, the `markdown` and `text` views) from
 * one parse, under a budget that every loop over the DOM checks (lib/extract/dom/budget.ts). Small
 * pages run here; the rest in the bounded pool of worker threads (lib/extract/dom/workers.ts),
 * because a full DOM of a page of several MB takes a second or more that must not stall others.
 */
import { type Budget, withBudget } from "./budget.ts";
import { runRulesOnDocument } from "../custom/mod.ts";
import type { CustomRules } from "../custom/rules.ts";
import { parseHtml } from "./mod.ts";
import { documentToMarkdown } from "../content/markdown.ts";
import { extractMainContent } from "../content/mod.ts";
import { renderPlainText } from "../content/plain_text.ts";

export interface DomWork {
  html: string;
  url: string;
  rules: CustomRules | null;
  markdown: boolean;
  /** The main content as plain text. */
  text?: boolean;
  /** Values of the rules' `evaluate` sources, computed in the browser. */
  evaluated?: unknown[];
}

export interface DomResult {
  custom: Record<string, unknown>;
  markdown: string | null;
  text: string | null;
}

/**
 * Above this many characters of HTML the work moves off the main thread. Below it, even a
 * hostile page takes a few milliseconds (every step is linear in the page).
 */
export const WORKER_THRESHOLD = 16 * 1024;

/** The work itself, synchronous; throws BudgetExceeded once `budget` is spent. */
export function domWorkSync(work: DomWork, budget?: Budget): DomResult {
  const run = (): DomResult => {
    const doc = parseHtml(work.html);
    const custom = work.rules
      ? runRulesOnDocument(doc, { url: work.url, rules: work.rules, evaluated: work.evaluated })
      : {};
    // Last: finding the main content removes the chrome from the DOM the rules read.
    const content = work.markdown || work.text ? extractMainContent(doc) : null;
    return {
      custom,
      markdown: content && work.markdown ? documentToMarkdown(doc, work.url, content) : null,
      text: content && work.text ? renderPlainText(content) : null,
    };
  };
  return budget ? withBudget(budget, run) : run();
}
