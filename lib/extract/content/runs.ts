/**
 * Lines of chrome written as text between <br>s inside a block ("+++<br>Credits: Titelbild
 * ...", "...<br>Du musst eingeloggt sein, um zu kommentieren"): no element holds such a line
 * alone, so the rules that judge elements never see it. Read from the page's counted sizes in
 * one pass over a block's children; only a short run beside a <br> has its text built.
 */
import type { ChildNode, Element } from "domhandler";
import { spend } from "../dom/budget.ts";
import { APPEAL_LINE, isAppeal, isChromeText } from "./boilerplate.ts";
import { textOfInline } from "./score.ts";
import { BLOCKS, type PageStats, SILENT } from "./stats.ts";

/**
 * Adds to `into` the nodes of each run of inline content directly in `el` that a <br> or a
 * block beside it sets on a line of its own and whose words are chrome, with the <br> that ends
 * it ("<form>...</form>Du musst eingeloggt sein ...": a line after the comment form).
 */
export function chromeRunsOf(el: Element, stats: PageStats, into: ChildNode[]): void {
  const children = el.children;
  const size = { text: 0 };
  let start = 0;
  // Whether a <br> or a block ends the line before the run.
  let afterLineEnd = false;
  const close = (end: number, beforeBreak: boolean, beforeBlock: boolean) => {
    if (size.text > 0 && size.text <= APPEAL_LINE && (afterLineEnd || beforeBreak || beforeBlock)) {
      const nodes = children.slice(start, end);
      if (isChromeRun(textOfInline(nodes))) {
        into.push(...nodes);
        if (beforeBreak) into.push(children[end]!);
      }
    }
    size.text = 0;
  };
  for (let i = 0; i < children.length; i++) {
    spend();
    const child = children[i]!;
    if (child.type === "text") {
      // The raw length bounds the counted one; whitespace between blocks is no line.
      const data = (child as unknown as { data: string }).data;
      if (size.text > 0 || VISIBLE.test(data)) size.text += data.length;
      continue;
    }
    if (child.type !== "tag") continue;
    const tag = child as Element;
    if (tag.name === "br" || BLOCKS.has(tag.name) || stats.of(tag).hasBlock) {
      close(i, tag.name === "br", tag.name !== "br");
      afterLineEnd = true;
      start = i + 1;
    } else if (!SILENT.has(tag.name) && !stats.hidden.has(tag)) {
      size.text += stats.of(tag).text;
    }
  }
  close(children.length, false, false);
}

const VISIBLE = /\S/;

/**
 * A line's words are chrome: a credit, a "Read more", an appeal to the reader. Not a byline:
 * lines between <br>s are how old pages list many posts, each under its author's name.
 */
function isChromeRun(text: string): boolean {
  return isChromeText(text, false) || isAppeal(text);
}
