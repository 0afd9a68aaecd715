/**
 * The article's text as the page states it in schema.org JSON-LD (`articleBody`): the
 * container holding the paragraphs found in it is the article, whatever the scores say.
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { rawText, selectAll, textOf } from "../dom/mod.ts";
import { parentElement } from "./score.ts";

/** Shorter statements are summaries, not the body. */
const MIN_BODY = 300;
/** Bounds on the work: paragraphs compared, characters of body searched. */
const MAX_PARAGRAPHS = 300;
const MAX_BODY = 200_000;
const BODY_FIELD = /"articleBody"\s*:\s*("(?:[^"\\]|\\.)*")/g;

const normal = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** The longest `articleBody` string of the page's JSON-LD, normalised, or null. */
export function statedBody(scripts: Element[]): string | null {
  let best = "";
  for (const script of scripts) {
    for (const match of rawText(script).slice(0, MAX_BODY * 2).matchAll(BODY_FIELD)) {
      spend();
      try {
        const text = JSON.parse(match[1]!) as string;
        if (text.length > best.length) best = text;
      } catch {
        // A malformed string: no statement.
      }
    }
  }
  return best.length >= MIN_BODY ? normal(best).slice(0, MAX_BODY) : null;
}

/** The nearest common container of the paragraphs whose text `body` states, or null. */
export function statedContainer(root: Element, body: string): Element | null {
  const found: Element[] = [];
  let checked = 0;
  for (const p of selectAll(root, "p")) {
    if (++checked > MAX_PARAGRAPHS) break;
    const text = normal(textOf(p));
    if (text.length >= 40 && body.includes(text.slice(0, 80))) found.push(p);
  }
  if (found.length < 2) return null;
  // Ancestors of the first paragraph, then the lowest one that every other paragraph is under.
  const depth = new Map<Element, number>();
  let d = 0;
  for (let up = parentElement(found[0]!); up; up = parentElement(up)) {
    spend();
    depth.set(up, d++);
  }
  let lowest = 0;
  for (const p of found.slice(1)) {
    let up = parentElement(p);
    while (up && !depth.has(up)) {
      spend();
      up = parentElement(up);
    }
    if (!up) return null;
    lowest = Math.max(lowest, depth.get(up)!);
  }
  for (const [el, at] of depth) if (at === lowest) return el;
  return null;
}
