/**
 * The XML parts of OOXML, ODF and EPUB read with the project's linear htmlparser2 parser in XML
 * mode. It decodes only XML's five named entities and character references: a DTD's entities
 * (internal or external, recursive or not) are never expanded, so "billion laughs" stays a short
 * literal, and nothing a document names (external entities, XInclude) is ever fetched.
 */
import { type AnyNode, type Document, type Element, isTag, isText } from "domhandler";
import { spend } from "../extract/dom/budget.ts";
import { parseBounded } from "./bounded_parse.ts";

export type { Document, Element };

/**
 * Elements one part may nest. Real documents nest a few dozen deep (a table in a table adds
 * four); the readers look things up inside an element (a cell's value, a table's rows, a
 * paragraph's runs), so each node is visited once per enclosing element looked into: the bound
 * keeps that linear (100,000 nested rows of a 2 KB sheet held a converter for its whole budget).
 */
export const MAX_XML_DEPTH = 256;

/** A part parsed whole, or refused past MAX_XML_DEPTH levels or the parser's node cap. */
export function parseXml(xml: string): Document {
  return parseBounded(xml, { xmlMode: true }, MAX_XML_DEPTH);
}

/** An element's name without its namespace prefix. */
export function localName(element: Element): string {
  const colon = element.name.indexOf(":");
  return colon < 0 ? element.name : element.name.slice(colon + 1);
}

/** An attribute by its local name (any prefix). */
export function attr(element: Element, name: string): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) {
    if (key === name || key.endsWith(`:${name}`)) return value;
  }
  return undefined;
}

/** The relationship id of an OOXML element (`r:id`, whatever the prefix is bound to). */
export function relationshipId(element: Element): string | undefined {
  for (const [key, value] of Object.entries(element.attribs)) {
    if (key.endsWith(":id")) return value;
  }
  return undefined;
}

export function childElements(node: AnyNode): Element[] {
  return "children" in node ? node.children.filter(isTag) : [];
}

/** Every descendant element with this local name, in document order (iterative: no deep recursion). */
export function findAll(root: AnyNode, name: string): Element[] {
  const out: Element[] = [];
  walk(root, (element) => {
    if (localName(element) === name) out.push(element);
    return true;
  });
  return out;
}

/**
 * The descendants with one of these local names, in document order, not looked for inside a
 * match nor inside an element named in `skip`: a table's own rows (its nested tables skipped), a
 * cell's paragraphs. Text read from them is read once; findAll's matches at every depth read a
 * nested one's text again for each match around it (80 tables nested in 10 KB of docx made
 * gigabytes of rows).
 */
export function findOutermost(
  root: AnyNode,
  names: string | string[],
  skip: string[] = [],
): Element[] {
  const wanted = typeof names === "string" ? [names] : names;
  const out: Element[] = [];
  walk(root, (element) => {
    const name = localName(element);
    if (wanted.includes(name)) out.push(element);
    return !wanted.includes(name) && !skip.includes(name);
  });
  return out;
}

export function findFirst(root: AnyNode, name: string): Element | null {
  let found: Element | null = null;
  walk(root, (element) => {
    if (found) return false;
    if (localName(element) === name) found = element;
    return found === null;
  });
  return found;
}

/** Visits elements depth-first in document order; `visit` returns false to skip the children. */
export function walk(root: AnyNode, visit: (element: Element) => boolean): void {
  const stack: AnyNode[] = "children" in root ? [...root.children].reverse() : [];
  while (stack.length) {
    spend();
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (visit(node) && node.children.length) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
}

/** The concatenated text under a node. */
export function textOf(root: AnyNode): string {
  if (isText(root)) return root.data;
  let out = "";
  const stack: AnyNode[] = "children" in root ? [...root.children].reverse() : [];
  while (stack.length) {
    spend();
    const node = stack.pop()!;
    if (isText(node)) out += node.data;
    else if ("children" in node) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return out;
}

/** The trimmed text of the first element with this local name, or undefined. */
export function firstText(root: AnyNode, name: string): string | undefined {
  const element = findFirst(root, name);
  const text = element ? textOf(element).trim() : "";
  return text || undefined;
}
