/**
 * A fetched target that is a document (detectDocument) converted to HTML in the
 * document workers' pool, within the time the request has left: the page step then reads it like
 * any page. One the converters refuse or cannot finish in time (corrupt, encrypted, a bomb, over
 * a budget) is described as a file without its content, with a log line saying why.
 */
import { isApiError } from "../../util/errors.ts";
import type { DocumentFormat } from "../../documents/detect.ts";
import type { FetchResult } from "../../fetch/types.ts";
import { log } from "../../util/log.ts";
import { type StepContext, wantsDomWork } from "./context.ts";

export interface ReadDocument {
  /** The converted document, or null when it was not converted. */
  html: string | null;
  /** PDF pages, when converted. */
  pages: number | null;
}

/**
 * Whether a step past the default fields reads the converted document (the content views, custom
 * rules, insights); when none does, only its head and opening cross back from the worker.
 */
function readsWholeDocument(context: StepContext): boolean {
  return wantsDomWork(context) || context.params.insights !== null;
}

/** Time kept back from the request's deadline to answer with the file described. */
const ANSWER_RESERVE_MS = 1500;

export async function readDocument(
  context: StepContext,
  result: FetchResult,
  format: DocumentFormat,
): Promise<ReadDocument> {
  const { params, services, signal, timings } = context;
  const started = performance.now();
  const skipped = (failure: string, message: string): ReadDocument => {
    log.warn("document not converted", { format, failure, message, bytes: result.body.length });
    return { html: null, pages: null };
  };
  if (result.truncated) {
    return skipped("too-large", `larger than MAX_BODY_BYTES (${services.config.maxBodyBytes})`);
  }
  const total = params.timeoutMs ?? services.config.requestTimeoutMs;
  const left = total - (performance.now() - context.startedAt);
  const budget = Math.max(0, left - Math.min(ANSWER_RESERVE_MS, left / 4));
  try {
    const outcome = await services.documents.convert(format, result.body, {
      endsAt: Date.now() + budget,
      whole: readsWholeDocument(context),
      signal,
    });
    if (!outcome.ok) return skipped(outcome.failure, outcome.message);
    return { html: outcome.converted.html, pages: outcome.converted.pages ?? null };
  } catch (error) {
    // The request's own end (ETIMEOUT) and a saturated pool (EBUSY) are the request's answer.
    if (isApiError(error) || signal.aborted) throw error;
    return skipped("failed", error instanceof Error ? error.message : String(error));
  } finally {
    timings.add("decode", performance.now() - started);
  }
}
