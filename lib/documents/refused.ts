import { MAX_DOM_NODES } from "../extract/stream/html_parser.ts";

/**
 * Why a document was not converted: the answer then describes the file without its content, and
 * the reason goes to the log (never to the client as an error: the fetch itself succeeded).
 */
export type RefusalReason = "corrupt" | "encrypted" | "too-large" | "unsupported";

export class DocumentRefused extends Error {
  readonly reason: RefusalReason;

  constructor(reason: RefusalReason, detail: string) {
    super(detail);
    this.name = "DocumentRefused";
    this.reason = reason;
  }
}

/** Budgets on what one document may hold: past one, it is refused rather than read in part. */
export const DOCUMENT_LIMITS = {
  /** PDF pages, presentation slides, EPUB spine chapters. */
  maxParts: 2000,
  /** Spreadsheet sheets. */
  maxSheets: 200,
  /** Spreadsheet cells across every sheet. */
  maxCells: 250_000,
  /** Characters of HTML one conversion may produce. */
  maxHtmlChars: 16 * 1024 * 1024,
  /**
   * Nodes (elements and texts) of HTML one conversion may produce: the page parser reads no
   * more than MAX_DOM_NODES, less a few for the head and the wrapping elements.
   */
  maxHtmlNodes: MAX_DOM_NODES - 100,
};
