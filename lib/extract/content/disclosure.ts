/**
 * Accordions whose markup does not say so. A FAQ's questions are often buttons (a button in a
 * heading, as WAI-ARIA's accordion pattern has it, or a heading in a button) and its answers
 * panels hidden until a question is clicked. A button is a control and a hidden element no
 * content, so both were lost, and the FAQ a reader came for with them.
 */
import type { Element } from "domhandler";
import { HEADING_TAGS } from "../dom/mod.ts";

/**
 * When `button` heads an accordion's panel, rewrites it to text (a span in a heading, or a div
 * around one) and gives the panel that follows it the role WAI-ARIA gives such a panel
 * (`region`, labelled): content behind one click, read as such (isHidden). measure() asks
 * this of each button it meets, before it meets the panel; false for any other button.
 */
export function openDisclosure(button: Element): boolean {
  const header = headerOf(button);
  if (!header) return false;
  const panel = nextElement(header);
  button.name = header === button ? "div" : "span";
  if (panel && panel.attribs.role === undefined) {
    panel.attribs.role = "region";
    panel.attribs["aria-labelledby"] = button.attribs.id ?? "";
  }
  return true;
}

/** The element a disclosure button heads its panel from, or null for another button. */
function headerOf(button: Element): Element | null {
  const parent = button.parent;
  if (parent?.type === "tag" && HEADING_TAGS.has((parent as Element).name)) {
    return parent as Element;
  }
  for (const child of button.children) {
    if (child.type === "tag" && HEADING_TAGS.has((child as Element).name)) return button;
  }
  return null;
}

function nextElement(el: Element): Element | null {
  for (let node = el.next; node; node = node.next) {
    if (node.type === "tag") return node as Element;
  }
  return null;
}
