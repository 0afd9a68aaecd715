/**
 * A story's sections after a heading that names chrome ("3 Responses", "Leave a Reply",
 * "You may also like"): the heading goes as a chrome line, and what it heads, set as its
 * siblings rather than inside one block with it (the comments' list, the reply form's notes),
 * goes with it, up to the next heading. Only on a page that says it is an article: a forum's
 * "Replies" heads its content.
 */
import type { Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { HEADING_TAGS } from "../dom/mod.ts";
import { isChromeHeading } from "./boilerplate.ts";
import type { PageStats } from "./stats.ts";

/** Headings that title a section (a story's own title, <h1>, never heads chrome). */
const SECTION_HEADINGS = new Set(["h2", "h3", "h4", "h5", "h6"]);

/**
 * The siblings after `heading` that its chrome name heads, up to the next heading (or a block
 * holding one), added to `into`. None when the heading names no chrome section, or when a
 * sibling holds half of the content (no story's body is headed "Comments").
 */
export function headedChrome(
  heading: Element,
  stats: PageStats,
  contentText: number,
  into: Set<Element>,
): void {
  if (!SECTION_HEADINGS.has(heading.name)) return;
  if (!isChromeHeading(stats.textOf(heading))) return;
  const section: Element[] = [];
  for (let at = heading.next; at; at = at.next) {
    spend();
    if (at.type !== "tag") continue;
    const el = at as Element;
    const s = stats.of(el);
    if (HEADING_TAGS.has(el.name) || s.headingText > 0) break;
    if (s.text >= contentText * 0.5) return;
    section.push(el);
  }
  for (const el of section) into.add(el);
}
