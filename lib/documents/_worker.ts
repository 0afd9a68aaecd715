/** A document-conversion thread (see DocumentWorkers): one job at a time, each under its budget. */
import { serveJobs } from "../util/worker_pool.ts";
import { BudgetExceeded } from "../extract/dom/budget.ts";
import { convertDocument } from "./convert.ts";
import { boundBuffers } from "./allocation.ts";
import { boundClock, withBoundedClock } from "./clock.ts";
import { boundDecompression } from "./decompression.ts";
import { fieldsView } from "./html.ts";
import { DocumentRefused } from "./refused.ts";
import type { ConvertJob, ConvertReply } from "./workers.ts";

// Before any document: pdf.js would otherwise inflate a stream bomb outside the heap cap.
boundDecompression();
boundBuffers();
boundClock();

serveJobs(async ({ task, endsAt, cancel }: ConvertJob): Promise<ConvertReply> => {
  try {
    const budget = { endsAt, cancelled: new Int32Array(cancel) };
    // A private copy: decoders may refuse views of shared memory.
    const bytes = new Uint8Array(task.bytes).slice();
    const converted = await withBoundedClock(
      budget,
      () => convertDocument(task.format, bytes, budget),
    );
    if (!task.whole) converted.html = fieldsView(converted.html);
    return { ok: true, converted };
  } catch (error) {
    return {
      ok: false,
      refused: error instanceof DocumentRefused ? error.reason : null,
      overBudget: error instanceof BudgetExceeded,
      message: error instanceof Error ? error.message : String(error),
    };
  }
});
