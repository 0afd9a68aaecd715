/**
 * The page's main content: the container Readability-style scoring picks (with class weights
 * read per token and text in <div>s with <br>s counted), joined with its siblings, with the
 * chrome inside it removed. When the strictest pass keeps too little (a page whose wrappers are
 * named like chrome, or that is a listing rather than an article), passes that trust names and
 * counts less are tried, as Readability does, and the one keeping most text wins.
 *
 * The DOM is changed: dropped chrome is removed and joined siblings are moved into one
 * wrapper. Callers run every other reader of the DOM first.
 */
import { type AnyNode, type Document, Element } from "domhandler";
import { appendChild, removeElement } from "domutils";
import { spend } from "../budget.ts";
import { attr, collapse, select, textOf } from "../dom.ts";
import { chromeWithin } from "./prune.ts";
import { type Flags, scoreCandidates } from "./score.ts";
import { topCandidate, withSiblings } from "./select.ts";
import { measure, type PageStats } from "./stats.ts";

/** Below this many characters a pass is taken as a miss and a more lenient one is tried. */
const ENOUGH_TEXT = 500;

interface Pass extends Flags {
  cleanConditionally: boolean;
}

const PASSES: Pass[] = [
  { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
];

interface Choice {
  roots: Element[];
  drop: Set<Element>;
  kept: number;
}

/** Finds the main content of `doc`, removes the chrome inside it and returns it. */
export function extractMainContent(doc: Document): AnyNode {
  const body = select(doc, "body") ?? adoptedBody(doc);
  const stats = measure(body);
  const title = pageTitle(doc);
  let best: Choice | null = null;
  for (const pass of PASSES) {
    const choice = choose(body, stats, title, pass);
    if (!choice) continue;
    if (!best || choice.kept > best.kept) best = choice;
    if (choice.kept >= ENOUGH_TEXT) break;
  }
  if (!best) return body;
  for (const el of best.drop) removeElement(el);
  if (best.roots.length === 1) return best.roots[0]!;
  const wrapper = new Element("div", {});
  for (const root of best.roots) appendChild(wrapper, root);
  return wrapper;
}

/** A page without <body> (fragments, old markup): its top-level nodes moved into one. */
function adoptedBody(doc: Document): Element {
  const body = new Element("body", {});
  for (const child of [...doc.children]) {
    spend();
    appendChild(body, child);
  }
  appendChild(doc, body);
  return body;
}

function choose(body: Element, stats: PageStats, title: string, pass: Pass): Choice {
  const scores = scoreCandidates(body, stats, pass);
  const top = topCandidate(scores, body) ?? body;
  const roots = withSiblings(top, scores, stats);
  let contentText = 0;
  for (const root of roots) contentText += stats.of(root).text;
  const drop = chromeWithin(roots, {
    stats,
    scores,
    title,
    contentText,
    cleanConditionally: pass.cleanConditionally,
  });
  let kept = contentText;
  for (const el of drop) {
    spend();
    kept -= stats.of(el).text;
  }
  return { roots, drop, kept };
}

function pageTitle(doc: Document): string {
  const og = select(doc, 'meta[property="og:title"]');
  const fromOg = og ? collapse(attr(og, "content") ?? "") : "";
  if (fromOg) return fromOg;
  const title = select(doc, "title");
  return title ? textOf(title) : "";
}
