/** Whether the page hides an element from its readers (its text is no part of the content). */
import type { Element } from "domhandler";

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** Classes frameworks use for text only screen readers get, or collapsed until clicked. */
const HIDDEN_CLASS =
  /(?:^|\s)(?:hidden|hide|d-none|sr-only|visually-hidden|visuallyhidden|screen-reader-text|screenreader|offscreen|element-invisible)(?:\s|$)/i;

const SHOWN_AT_SOME_SIZE =
  /(?:^|\s)[\w-]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)(?:\s|$)/;

export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if ("hidden" in a) return true;
  if (a["aria-hidden"] === "true" && el.name !== "html" && el.name !== "body") return true;
  if (a.style && HIDDEN_STYLE.test(a.style)) return true;
  // Tailwind-style `hidden lg:flex`: hidden on small screens only.
  return a.class !== undefined && HIDDEN_CLASS.test(a.class) && !SHOWN_AT_SOME_SIZE.test(a.class);
}
