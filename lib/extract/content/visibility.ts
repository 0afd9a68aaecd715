/** Whether the page hides an element from its readers (its text is no part of the content). */
import type { Element } from "domhandler";

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** Classes frameworks use for text only screen readers get, or collapsed until clicked. */
const HIDDEN_CLASS =
  /(?:^|\s)(?:hidden|hide|d-none|sr-only|visually-hidden|visuallyhidden|screen-reader-text|screenreader|offscreen|element-invisible)(?:\s|$)/i;

const SHOWN_AT_SOME_SIZE =
  /(?:^|\s)[\w-]+:(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)(?:\s|$)/;

/**
 * Classes that hide a block on large screens (Squarespace's `hidden-up-md`, Bootstrap 3's
 * `hidden-lg` and `visible-xs`, Tailwind's `md:hidden`, Foundation's `hide-for-large`): the
 * small screens' copy of what the page shows larger elsewhere (a product's description set
 * twice, once per layout), whose large screens' copy the rules above read as shown. The
 * content is read as on a large screen.
 */
const MOBILE_ONLY =
  /(?:^|\s)(?:hidden-up-(?:sm|md|lg)|hidden-(?:md|lg)|visible-(?:xs|sm)(?:-block|-inline)?|(?:md|lg):hidden|hide-for-(?:medium|large)(?:-up)?|show-for-small-only|mobile-only)(?:\s|$)/;

export function isHidden(el: Element): boolean {
  const hidden = hiddenByPage(el);
  return hidden && !isCollapsedPanel(el) && !isStreamedSegment(el);
}

/** React's id for a streamed segment: `S:` and a number (`S:0`, `S:27`). */
const SEGMENT_ID = /^S:\d+$/;

/**
 * A segment of a page rendered in streams (React's `renderToPipeableStream`, the frameworks
 * built on it): sent last as a hidden `<div id="S:n">`, then moved by the page's own script into
 * the placeholder it fills. A reader sees it in place; its text is content like any other.
 */
function isStreamedSegment(el: Element): boolean {
  return el.name === "div" && el.attribs.hidden !== undefined &&
    SEGMENT_ID.test(el.attribs.id ?? "");
}

/**
 * A panel of an accordion or of tabs (WAI-ARIA's `role=region` labelled by its header, or
 * `role=tabpanel`), collapsed until its reader opens it: content behind one click, not chrome.
 */
export function isCollapsedPanel(el: Element): boolean {
  const role = el.attribs.role;
  return role === "tabpanel" || (role === "region" && el.attribs["aria-labelledby"] !== undefined);
}

function hiddenByPage(el: Element): boolean {
  // The attributes read in turn: most elements have none or one, and a read by name of an
  // attribute map (each element's of another shape) costs more than a pass over its keys.
  const a = el.attribs;
  let hiddenClass = false;
  for (const name in a) {
    const value = a[name]!;
    switch (name) {
      case "hidden":
        return true;
      case "aria-hidden":
        if (value === "true" && el.name !== "html" && el.name !== "body") return true;
        break;
      case "style":
        if (HIDDEN_STYLE.test(value)) return true;
        break;
      case "class":
        // Tailwind-style `hidden lg:flex`: hidden on small screens only.
        hiddenClass = (HIDDEN_CLASS.test(value) && !SHOWN_AT_SOME_SIZE.test(value)) ||
          MOBILE_ONLY.test(value);
    }
  }
  return hiddenClass;
}
