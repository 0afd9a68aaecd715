/**
 * One document converted to HTML by its format's converter, under a budget: the synchronous
 * converters spend from it inside their loops (see spend), the asynchronous ones
 * (pdf.js) check it between pages.
 */
import { type Budget, BudgetExceeded, withBudget } from "../extract/dom/budget.ts";
import type { DocumentFormat } from "./detect.ts";
import { docxToHtml } from "./docx.ts";
import { epubToHtml } from "./epub.ts";
import { odtToHtml } from "./odt.ts";
import { pdfToHtml } from "./pdf.ts";
import { pptxToHtml } from "./pptx.ts";
import { rtfToHtml } from "./rtf.ts";
import { xlsxToHtml } from "./xlsx.ts";

export interface Converted {
  html: string;
  /** PDF pages. */
  pages?: number;
}

export async function convertDocument(
  format: DocumentFormat,
  bytes: Uint8Array,
  budget: Budget = { endsAt: Infinity },
): Promise<Converted> {
  const check = () => {
    if (budget.cancelled && Atomics.load(budget.cancelled, 0) !== 0) {
      throw new BudgetExceeded("the request ended");
    }
    if (Date.now() >= budget.endsAt) throw new BudgetExceeded("its time budget ran out");
  };
  const sync = (convert: (bytes: Uint8Array) => string) => ({
    html: withBudget(budget, () => convert(bytes)),
  });
  switch (format) {
    case "pdf":
      return await pdfToHtml(bytes, check);
    case "docx":
      return sync(docxToHtml);
    case "rtf":
      return sync(rtfToHtml);
    case "xlsx":
      return sync(xlsxToHtml);
    case "pptx":
      return sync(pptxToHtml);
    case "odt":
      return sync(odtToHtml);
    case "epub":
      return sync(epubToHtml);
  }
}
