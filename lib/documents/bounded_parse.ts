/**
 * Markup of a document (its XML parts, an EPUB's chapters) parsed whole or refused: the page
 * parser's cap keeps the first MAX_DOM_NODES nodes and drops the rest, which for a document would
 * read it in part without a word (a chapter of 300,000 paragraphs ended at the 249,998th).
 */
import type { Document, DomHandlerOptions } from "domhandler";
import type { ParserOptions } from "htmlparser2";
import { CountingHandler, LinearParser, MAX_DOM_NODES } from "../extract/stream/html_parser.ts";
import { DocumentRefused } from "./refused.ts";

/** A DOM builder that refuses past `maxDepth` open elements or MAX_DOM_NODES nodes. */
class RefusingHandler extends CountingHandler {
  readonly #maxDepth: number;

  constructor(options: DomHandlerOptions, maxDepth: number) {
    super(undefined, options);
    this.#maxDepth = maxDepth;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    // The stack holds the document itself below the elements.
    if (this.tagStack.length > this.#maxDepth + 1) {
      throw new DocumentRefused("too-large", `markup nests deeper than ${this.#maxDepth} elements`);
    }
  }

  protected override counted(nodes: number): void {
    if (nodes > MAX_DOM_NODES) {
      throw new DocumentRefused("too-large", `markup holds more than ${MAX_DOM_NODES} nodes`);
    }
  }
}

/** `markup` parsed with htmlparser2's `options` (through LinearParser), or DocumentRefused. */
export function parseBounded(
  markup: string,
  options: ParserOptions & DomHandlerOptions,
  maxDepth = Infinity,
): Document {
  const handler = new RefusingHandler(options, maxDepth);
  new LinearParser(handler, options).end(markup);
  return handler.root;
}
