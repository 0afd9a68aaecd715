/**
 * A list the story's own sentence introduces ("Meditation has been shown to help improve:"):
 * its items are the sentence's points, even when each is a link (to the study it cites, to the
 * product it names), where a list of links alone reads as a box of other stories.
 */
import { type Element, isTag, isText } from "domhandler";
import { startsAsChrome } from "./boilerplate.ts";
import { linkDensity, type PageStats } from "./stats.ts";

/** Fewest words of an introducing sentence: "Related stories:" or "See also:" are labels. */
const INTRO_WORDS = 4;
/** Longest introducing line read. */
const INTRO_MAX = 300;
/** Tags of a line that may introduce a list. */
const INTRO_TAGS = new Set(["p", "div", "span", "h2", "h3", "h4", "h5", "h6", "strong", "b"]);

/**
 * Whether the line right before `list` (a text or a line element, its previous sibling with
 * text) is a sentence of the story ending in a colon. Constant work: one sibling is read.
 */
export function isIntroducedList(list: Element, stats: PageStats): boolean {
  let prev = list.prev;
  while (prev && isText(prev) && !prev.data.trim()) prev = prev.prev;
  if (!prev) return false;
  let text: string;
  if (isText(prev)) {
    text = prev.data.slice(-INTRO_MAX);
  } else if (isTag(prev) && INTRO_TAGS.has(prev.name)) {
    const s = stats.of(prev);
    if (s.text > INTRO_MAX || s.hasBlock || linkDensity(s) >= 0.5) return false;
    text = stats.textOf(prev);
  } else {
    return false;
  }
  text = text.trim();
  if (!text.endsWith(":")) return false;
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.length >= INTRO_WORDS && !startsAsChrome(text);
}
