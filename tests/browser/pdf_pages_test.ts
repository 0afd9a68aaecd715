/** How many pages a PDF capture prints (boundedPageRanges), and what `pdf.pageRanges` may be. */
import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { parseParams } from "../../lib/params/mod.ts";
import { boundedPageRanges, MAX_PDF_PAGES } from "../../lib/browser/pdf_pages.ts";

const parse = (query: string) => parseParams(new URLSearchParams(query), { maxTimeoutMs: 28_000 });

Deno.test("without a range, a PDF prints its first MAX_PDF_PAGES pages", () => {
  assert.equal(boundedPageRanges(undefined), `1-${MAX_PDF_PAGES}`);
  assert.equal(boundedPageRanges(" "), `1-${MAX_PDF_PAGES}`);
});

Deno.test("a caller's ranges pass as Chromium reads them, an open end closed", () => {
  assert.equal(boundedPageRanges("1-5, 8, 11-13"), "1-5, 8, 11-13");
  assert.equal(boundedPageRanges("-5"), "1-5");
  assert.equal(boundedPageRanges(" 2 - 4 "), "2-4");
  assert.equal(boundedPageRanges("900-"), `900-${900 + MAX_PDF_PAGES - 1}`);
  // Overlaps count once, as Chromium prints each page once.
  assert.equal(boundedPageRanges("1-400, 300-500"), "1-400, 300-500");
  // Backwards: Chromium's to refuse (EPAGERANGE).
  assert.equal(boundedPageRanges("5-3"), "5-3");
});

Deno.test("ranges asking for more than MAX_PDF_PAGES pages are refused", () => {
  for (const ranges of ["1-501", "1-400, 300-501", "1-999999999", "1-300, 1000-1300"]) {
    assert.throws(
      () => boundedPageRanges(ranges),
      (error: ApiError) =>
        error.code === "EINVALQUERY" && /pages; a PDF holds at most/.test(error.message),
      ranges,
    );
  }
});

Deno.test("the query's pdf.pageRanges must read as a list of pages", () => {
  for (const ranges of ["1-5, 8, 11-13", "7", "-5", "5-", ""]) {
    const params = parse(`pdf.pageRanges=${encodeURIComponent(ranges)}`);
    assert.ok(params.pdf, ranges);
  }
  for (const ranges of ["1 6", "-", "a", "1-2-3", "1,,2", "1".repeat(10)]) {
    assert.throws(
      () => parse(`pdf.pageRanges=${encodeURIComponent(ranges)}`),
      (error: ApiError) => error.code === "EINVALQUERY" && /pdf\.pageRanges/.test(error.message),
      ranges,
    );
  }
});
