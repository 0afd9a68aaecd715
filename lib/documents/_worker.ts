/** A document-conversion thread (see workers.ts): one job at a time, each under its budget. */
import { parentPort } from "node:worker_threads";
import { BudgetExceeded } from "../extract/dom/budget.ts";
import { convertDocument } from "./convert.ts";
import { DocumentRefused } from "./refused.ts";
import type { ConvertJob, ConvertReply } from "./workers.ts";

parentPort!.on("message", async ({ format, bytes, endsAt, cancel }: ConvertJob) => {
  let reply: ConvertReply;
  try {
    const budget = { endsAt, cancelled: new Int32Array(cancel) };
    // A private copy: decoders may refuse views of shared memory.
    const converted = await convertDocument(format, new Uint8Array(bytes).slice(), budget);
    reply = { ok: true, converted };
  } catch (error) {
    reply = {
      ok: false,
      refused: error instanceof DocumentRefused ? error.reason : null,
      overBudget: error instanceof BudgetExceeded,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  parentPort!.postMessage(reply);
});
