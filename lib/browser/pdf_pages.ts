/**
 * How many pages a PDF capture prints. Chromium renders every page it is asked for, in one
 * call no deadline can cut short: a page of 3,000 page breaks took 9 s to print whole, and
 * 0.9 s for its first 200 pages (its layout costs little, each printed page a lot). So a capture
 * prints at most MAX_PDF_PAGES pages: the first ones when no range is given, and a caller's
 * `pdf.pageRanges` may ask for any pages, as long as they are no more than that.
 */
import { ApiError } from "../util/errors.ts";

/** Pages one PDF capture prints at most (a 200,000-word book at Microlink's default scale). */
export const MAX_PDF_PAGES = 500;

/** One item of a page range list: `7`, `3-5`, `-5` (1 to 5) or `5-` (5 to the end). */
const ITEM_SOURCE = "\\s*(?:\\d{1,9}(?:\\s*-\\s*(?:\\d{1,9})?)?|-\\s*\\d{1,9})\\s*";
/** A list of items, as the query's `pdf.pageRanges` must be ("1-5, 8, 11-13"), or none. */
export const PAGE_RANGES_PATTERN = `^(?:\\s*|${ITEM_SOURCE}(?:,${ITEM_SOURCE})*)$`;
const ITEM = /^\s*(\d{1,9})?\s*(-)?\s*(\d{1,9})?\s*$/;

/**
 * The `pageRanges` to hand Chromium for a caller's `pdf.pageRanges` (undefined: the whole
 * document): the first MAX_PDF_PAGES pages by default, a range open at its end closed that
 * many pages on, and a list asking for more pages than that refused (EINVALQUERY). A range
 * Chromium refuses (backwards, past the document) goes to it unchanged, to be refused there.
 */
export function boundedPageRanges(ranges: string | undefined): string {
  if (ranges === undefined || ranges.trim() === "") return `1-${MAX_PDF_PAGES}`;
  const spans: [number, number][] = [];
  const items = ranges.split(",").map((item) => {
    const match = ITEM.exec(item);
    const [, from, dash, to] = match ?? [];
    if (!match || (!from && !to) || (!dash && (!from || to))) {
      throw new ApiError(
        "EINVALQUERY",
        `The parameter \`pdf.pageRanges\` "${ranges}" is not a list of pages like "1-5, 8, 11-13".`,
      );
    }
    const start = Number(from ?? 1);
    if (!dash) {
      spans.push([start, start]);
      return item.trim();
    }
    // Open at its end: as many pages as one capture prints.
    const end = to === undefined ? start + MAX_PDF_PAGES - 1 : Number(to);
    if (start <= end) spans.push([start, end]);
    return `${start}-${end}`;
  });
  const pages = countPages(spans);
  if (pages > MAX_PDF_PAGES) {
    throw new ApiError(
      "EINVALQUERY",
      `The parameter \`pdf.pageRanges\` "${ranges}" asks for ${pages} pages; a PDF holds at ` +
        `most ${MAX_PDF_PAGES}: ask for fewer at a time.`,
    );
  }
  return items.join(", ");
}

/** Pages in the union of inclusive spans (Chromium prints each page once). */
function countPages(spans: [number, number][]): number {
  spans.sort((a, b) => a[0] - b[0]);
  let pages = 0;
  let covered = 0;
  for (const [start, end] of spans) {
    const from = Math.max(start, covered + 1);
    if (end >= from) pages += end - from + 1;
    covered = Math.max(covered, end);
  }
  return pages;
}
