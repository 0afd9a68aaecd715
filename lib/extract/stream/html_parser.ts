/**
 * htmlparser2's Parser with its open-element stack made linear. The stock Parser keeps the stack
 * top-first in an array and opens each element with `unshift` (it moves every entry), and looks
 * end tags up with `indexOf` from the top: a page of 500,000 unclosed `<i>` took minutes, on
 * the event loop for the default fields. Here the same stack is kept bottom-first, with a count
 * per name, behind the few operations the Parser uses (pinned: htmlparser2 12.0.0; a test
 * checks that both parsers build the same document). One difference, on purpose: a heading's
 * end tag of another level closes the open heading, as in browsers.
 */
import { Parser, type ParserOptions, type QuoteType, type Tokenizer } from "htmlparser2";
import { DomHandler, type DomHandlerOptions } from "domhandler";
import type { Document } from "domhandler";
import { spend } from "../dom/budget.ts";
import { HEADING_TAGS } from "../dom/tags.ts";
import { decodeEntities } from "../fields/text.ts";
import { decodeAttribute, ScanningTokenizer, textDecodes } from "./scanning_tokenizer.ts";

type Callbacks = NonNullable<ConstructorParameters<typeof Parser>[0]>;

/** Deeper than this, names are counted so that a stray end tag is not a scan of the stack. */
const DEEP = 256;

/** A stack read top-first (`[0]`, `indexOf`, `shift`, `unshift`) and stored bottom-first. */
class TopFirstStack<T> {
  /** The top, as a plain data property: the Parser reads `stack[0]` on every tag. */
  0: T | undefined = undefined;
  readonly items: T[] = [];
  /** Entries per name, kept only while the stack is deep (a Map costs on every tag). */
  counts: Map<T, number> | null = null;

  get length(): number {
    return this.items.length;
  }

  /** Only ever emptied (Parser.reset sets length = 0). */
  set length(value: number) {
    while (this.items.length > value) this.shift();
  }

  unshift(item: T): number {
    this[0] = item;
    const length = this.items.push(item);
    if (this.counts) this.counts.set(item, (this.counts.get(item) ?? 0) + 1);
    else if (length > DEEP) this.counts = countAll(this.items);
    return length;
  }

  shift(): T | undefined {
    const items = this.items;
    if (items.length === 0) return undefined;
    const item = items.pop()!;
    this[0] = items[items.length - 1];
    const counts = this.counts;
    if (counts) {
      // Dropped well below DEEP only, so that a page hovering at the edge does not rebuild it.
      if (items.length < DEEP / 2) this.counts = null;
      else {
        const count = counts.get(item)! - 1;
        if (count === 0) counts.delete(item);
        else counts.set(item, count);
      }
    }
    return item;
  }

  includes(item: T): boolean {
    return this.counts ? this.counts.has(item) : this.items.includes(item);
  }

  /** Distance from the top, or -1. */
  indexOf(item: T): number {
    if (this.counts && !this.counts.has(item)) return -1;
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      if (items[i] === item) return items.length - 1 - i;
    }
    return -1;
  }

  *topDown(): Generator<T> {
    for (let i = this.items.length - 1; i >= 0; i--) yield this.items[i]!;
  }
}

function countAll<T>(items: T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** The Parser members this file replaces (private in its typings). */
interface Internals {
  stack: TopFirstStack<string>;
  foreignContext: TopFirstStack<number>;
  cbs: Callbacks;
  startIndex: number;
  endIndex: number;
  tokenizer: Tokenizer;
  attribvalue: string;
  getSlice(start: number, end: number): string;
}

export class LinearParser extends Parser {
  /** Entities are decoded here, not by the tokenizer (see ScanningTokenizer). */
  readonly #decodes: boolean;

  constructor(cbs: Callbacks | null, options: ParserOptions = {}) {
    const decodes = options.decodeEntities !== false && !options.xmlMode && !options.Tokenizer;
    super(
      cbs,
      decodes ? { ...options, decodeEntities: false, Tokenizer: ScanningTokenizer } : options,
    );
    this.#decodes = decodes;
    const self = this as unknown as Internals;
    const foreign = new TopFirstStack<number>();
    foreign.unshift((this as unknown as { foreignContext: number[] }).foreignContext[0]!);
    self.stack = new TopFirstStack<string>();
    self.foreignContext = foreign;
  }

  /** Every tag and text spends from the job's budget (see spend). */
  override onopentagname(start: number, endIndex: number): void {
    spend();
    super.onopentagname(start, endIndex);
  }

  override ontext(start: number, endIndex: number): void {
    spend();
    const self = this as unknown as Internals;
    if (!this.#decodes || !textDecodes(self.tokenizer)) return super.ontext(start, endIndex);
    // As Parser.ontext, with the text decoded (the Tokenizer's own mode for text).
    const text = decodeEntities(self.getSlice(start, endIndex));
    self.endIndex = endIndex - 1;
    self.cbs.ontext?.(text);
    self.startIndex = endIndex;
  }

  override onattribend(quote: QuoteType, endIndex: number): void {
    if (this.#decodes) {
      const self = this as unknown as Internals;
      self.attribvalue = decodeAttribute(self.attribvalue);
    }
    super.onattribend(quote, endIndex);
  }

  /**
   * An end tag of another heading level closes the open heading, as browsers do (HTML's rule
   * for h1-h6): a `<h2>…</h3>` typo must not swallow the rest of the page into the heading.
   */
  override onclosetag(start: number, endIndex: number): void {
    const self = this as unknown as Internals;
    const top = self.stack[0];
    if (top !== undefined && HEADING_TAGS.has(top)) {
      const name = self.getSlice(start, endIndex).toLowerCase();
      if (name !== top && HEADING_TAGS.has(name) && !self.stack.includes(name)) {
        self.endIndex = endIndex;
        self.stack.shift();
        self.cbs.onclosetag?.(top, false);
        self.startIndex = endIndex + 1;
        return;
      }
    }
    super.onclosetag(start, endIndex);
  }

  /** As Parser.onend, reading the stack top-down without indexes. */
  override onend(): void {
    const self = this as unknown as Internals;
    if (self.cbs.onclosetag) {
      self.endIndex = self.startIndex;
      for (const name of self.stack.topDown()) self.cbs.onclosetag(name, true);
    }
    self.cbs.onend?.();
  }
}

/**
 * Elements and texts a parsed DOM holds at most; the rest of the page is left out, as the body
 * cap leaves out bytes. A DOM costs a few hundred bytes a node: this bounds a worker's heap.
 */
export const MAX_DOM_NODES = 500_000;

/**
 * A DOM handler that counts the nodes it makes (elements and texts): `counted` sees each one's
 * number before it is made, to stop or refuse a parse at MAX_DOM_NODES.
 */
export class CountingHandler extends DomHandler {
  #nodes = 0;

  override onopentag(name: string, attribs: Record<string, string>): void {
    this.counted(++this.#nodes);
    super.onopentag(name, attribs);
  }

  override ontext(data: string): void {
    this.counted(++this.#nodes);
    super.ontext(data);
  }

  protected counted(_nodes: number): void {}
}

/** A DOM handler that stops the parse at MAX_DOM_NODES. */
class BoundedHandler extends CountingHandler {
  #parser: Parser | null = null;

  override onparserinit(parser: Parser): void {
    super.onparserinit(parser);
    this.#parser = parser;
  }

  protected override counted(nodes: number): void {
    // Pausing stops the tokenizer after this node; what was read stays a valid tree.
    if (nodes === MAX_DOM_NODES) this.#parser?.pause();
  }
}

/** htmlparser2's parseDocument over LinearParser, at most MAX_DOM_NODES nodes. */
export function parseDocument(html: string, options: ParserOptions & DomHandlerOptions): Document {
  const handler = new BoundedHandler(undefined, options);
  new LinearParser(handler, options).end(html);
  return handler.root;
}

/** Parser events a second reader of the same parse takes (the default fields' record). */
export interface ParseListener {
  onopentag(name: string, attribs: Record<string, string>): void;
  onclosetag(name: string): void;
  ontext(data: string): void;
}

/**
 * The parser's callbacks for a DOM handler and `listener` at once. Past MAX_DOM_NODES the tree
 * stops growing (nodes are linked when made: what was built stays a valid tree) while the parse
 * goes on: the listener reads the whole page, as it would alone.
 */
function shared(dom: DomHandler, listener: ParseListener): Callbacks {
  let nodes = 0;
  const room = () => nodes < MAX_DOM_NODES;
  return {
    onparserinit: (parser) => dom.onparserinit(parser),
    onreset: () => dom.onreset(),
    onend: () => dom.onend(),
    onerror: (error) => dom.onerror(error),
    onopentag(name, attribs) {
      listener.onopentag(name, attribs);
      if (!room()) return;
      nodes++;
      dom.onopentag(name, attribs);
    },
    onclosetag(name) {
      listener.onclosetag(name);
      if (room()) dom.onclosetag();
    },
    ontext(data) {
      listener.ontext(data);
      if (!room()) return;
      nodes++;
      dom.ontext(data);
    },
    oncomment(data) {
      if (room()) dom.oncomment(data);
    },
    oncommentend() {
      if (room()) dom.oncommentend();
    },
    oncdatastart() {
      if (room()) dom.oncdatastart();
    },
    oncdataend() {
      if (room()) dom.oncdataend();
    },
    onprocessinginstruction(name, data) {
      if (room()) dom.onprocessinginstruction(name, data);
    },
  };
}

/**
 * One parse for two readers: the DOM (as parseDocument builds it) and `listener`, which gets
 * the same events a parse of its own would give it (same options: PARSER_OPTIONS of the record).
 */
export function parseDocumentWith(
  html: string,
  listener: ParseListener,
  options: ParserOptions & DomHandlerOptions,
): Document {
  const dom = new DomHandler(undefined, options);
  new LinearParser(shared(dom, listener), options).end(html);
  return dom.root;
}
