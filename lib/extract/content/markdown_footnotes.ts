/**
 * Footnotes for the Markdown views, as GFM writes them: a reference `[^n]` where the text
 * cites a note, and `[^n]: text` for the note. The notes are the items of the page's note list
 * (Markdown processors' `.footnotes`, Pandoc's `doc-endnotes`, Wikipedia's `.references`,
 * items with `fn`/`footnote`/`cite_note` ids), numbered by their place in it; a reference is an
 * in-page link to one of them. Back-links (↩) inside a note are dropped. The same walk notes
 * every in-page target (id or <a name>), so that other in-page links can tell whether they lead
 * anywhere in what is rendered.
 */
import { type AnyNode, type Element, isTag } from "domhandler";
import { attr } from "../dom/mod.ts";
import { spend } from "../dom/budget.ts";
import { fragment } from "./markdown_links.ts";

/** A list of notes, by its own or a near wrapper's class/id/role. */
const NOTE_LIST =
  /(?:^|[\s_-])(?:footnotes?|endnotes?|doc-endnotes|references|reflist|notes)(?:$|[\s_-])/i;
/** An item that is a note by its id, whatever its list is called. */
const NOTE_ID = /^(?:fn|footnote|endnote|cite_note|note)[\d:_-]/i;
/** How far above the list a wrapper may name it (`div.footnotes > ol`). */
const WRAPPER_LEVELS = 2;
const BACKLINK_TEXT = /^\s*(?:↩\uFE0E?|↑|\^|⤴)+\s*$/;
const BACKLINK_NAMES = /backref|backlink|reversefootnote|footnote-back|footnote-return/i;

export class Footnotes {
  /** Note item -> its label. */
  readonly #labels = new Map<Element, string>();
  /** id -> note item, for the references. */
  readonly #byId = new Map<string, Element>();
  /** Every id and anchor name under the root. */
  readonly #targets = new Set<string>();

  readonly #root: AnyNode;
  readonly #dropped: (el: Element) => boolean;
  #indexed = false;

  /**
   * The notes under `root` (the part being rendered), leaving out what the renderer drops
   * (`dropped`): a reference to a dropped note would point nowhere. They are indexed on the
   * first question only a walk answers: most parts have no in-page link and no list of notes
   * (the DOM job ~0.7% faster).
   */
  constructor(root: AnyNode, dropped: (el: Element) => boolean) {
    this.#root = root;
    this.#dropped = dropped;
  }

  /** Indexes the notes and the link targets under the root in one walk, once. */
  #index(): void {
    if (this.#indexed) return;
    this.#indexed = true;
    const root = this.#root;
    const stack: AnyNode[] = [root];
    while (stack.length) {
      spend();
      const node = stack.pop()!;
      if (!("children" in node)) continue;
      if (isTag(node)) {
        if (node !== root && this.#dropped(node)) continue;
        const id = node.attribs.id ?? (node.name === "a" ? node.attribs.name : undefined);
        if (id) this.#targets.add(id);
        if (node.name === "ol" || node.name === "ul") this.#indexList(node);
      }
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }

  #indexList(list: Element): void {
    const named = isNoteList(list);
    let n = Number.parseInt(attr(list, "start") ?? "1", 10);
    if (!Number.isFinite(n) || n < 0) n = 1;
    for (const item of list.children) {
      if (!isTag(item) || item.name !== "li") continue;
      const id = attr(item, "id");
      const role = attr(item, "role");
      const note = id && (named || NOTE_ID.test(id) || role === "doc-endnote" ||
        role === "doc-footnote");
      if (note) {
        this.#labels.set(item, String(n));
        this.#byId.set(id, item);
      }
      n++;
    }
  }

  /** The label `[^label]` a link cites, or null when it is no note reference. */
  reference(link: Element): string | null {
    const id = fragment(link);
    if (id === null) return null;
    this.#index();
    const note = this.#byId.get(id);
    return note ? this.#labels.get(note)! : null;
  }

  /** Whether an in-page link (`href="#id"`) leads to something under the root. */
  leadsInside(link: Element): boolean {
    const id = fragment(link);
    if (id === null) return false;
    this.#index();
    return this.#targets.has(id);
  }

  /** The label of a note item, or null when `item` is no note. */
  label(item: Element): string | null {
    this.#index();
    return this.#labels.get(item) ?? null;
  }

  /** Whether every item of `list` is a note: rendered as definitions, not as a list. */
  isNoteList(list: Element): boolean {
    // Only an item with an id is a note: a list with one item without is none, index or not.
    for (const item of list.children) {
      if (isTag(item) && item.name === "li" && !attr(item, "id")) return false;
    }
    this.#index();
    let notes = 0;
    for (const item of list.children) {
      if (!isTag(item) || item.name !== "li") continue;
      if (!this.#labels.has(item)) return false;
      notes++;
    }
    return notes > 0;
  }
}

/** A link back from a note to where it was cited (↩, ^): noise once the note is a definition. */
export function isBacklink(link: Element): boolean {
  const names = `${attr(link, "class") ?? ""} ${attr(link, "role") ?? ""}`;
  if (BACKLINK_NAMES.test(names) || attr(link, "role") === "doc-backlink") return true;
  const href = attr(link, "href") ?? "";
  if (/^#(?:fnref|cite_ref|ref)/i.test(href)) return true;
  const text = link.children.map((c) => ("data" in c ? String(c.data) : "")).join("");
  return href.startsWith("#") && BACKLINK_TEXT.test(text);
}

function isNoteList(list: Element): boolean {
  let el: AnyNode | null = list;
  for (let i = 0; i <= WRAPPER_LEVELS && el && isTag(el); i++, el = el.parent) {
    const names = `${attr(el, "class") ?? ""} ${attr(el, "id") ?? ""} ${attr(el, "role") ?? ""}`;
    if (NOTE_LIST.test(names)) return true;
  }
  return false;
}
