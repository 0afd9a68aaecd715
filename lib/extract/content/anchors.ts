/**
 * A section of a document known by an anchor id (`<section id="s-select-related">`, `<div
 * class="refsect2" id="SQL-FOR-UPDATE-SHARE">`, as documentation generators write them): the id
 * is made of its subject's words for links to it, and words in it that name chrome elsewhere
 * ("related", "share") say nothing of its role. Only its class and role do.
 */
import { Element } from "domhandler";
import { HEADING_TAGS } from "../dom/mod.ts";
import { isUnlikelyByClass } from "./classes.ts";
import type { PageStats } from "./stats.ts";

/** How many of a section's first children are looked at for its heading. */
const HEAD_CHILDREN = 3;
/** A class token naming a document's section: `section`, `sect1`, `refsect2`. */
const SECTION_CLASS = /(?:^|\s)(?:ref)?sect(?:ion)?\d*(?:\s|$)/i;

/**
 * Whether `el`, judged unlikely by its names, is a document's headed section that only its id
 * names so. Read only of elements already judged unlikely: a constant-time look at a few
 * children and a second judgement of its class and role alone.
 */
export function anchoredSection(el: Element, stats: PageStats): boolean {
  const { id, class: className } = el.attribs;
  if (!id || (el.name !== "section" && !SECTION_CLASS.test(className ?? ""))) return false;
  if (stats.of(el).headingText === 0 || !opensWithHeading(el)) return false;
  return !isUnlikelyByClass(el);
}

/** Whether a heading is among `el`'s first element children. */
function opensWithHeading(el: Element): boolean {
  let seen = 0;
  for (const child of el.children) {
    if (!(child instanceof Element)) continue;
    if (HEADING_TAGS.has(child.name)) return true;
    if (++seen >= HEAD_CHILDREN) break;
  }
  return false;
}
