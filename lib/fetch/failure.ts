/** Turns whatever a network operation threw into the contract's ApiError. */
import { ApiError, causeChain, isApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { CORRUPT_BODY } from "./body.ts";
import { MULTIPLE_LOCATION, UNSUPPORTED_TRANSFER_CODING } from "./http1.ts";

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO|HOSTNAME|ALTNAME|HANDSHAKE/i;

function describe(error: unknown): { code: string; text: string } {
  const e = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const text = typeof e?.message === "string" ? e.message : String(error);
  if (!code && e?.cause) return describe(e.cause);
  return { code, text };
}

/**
 * `subject` names the target (`The URL "http://x/"`). Known network failures become EFETCH
 * with a short reason, timeouts ETIMEOUT; nothing escapes as a non-ApiError.
 */
export function toApiError(error: unknown, subject: string): ApiError {
  if (isApiError(error)) return error;
  const { code, text } = describe(error);
  const reason = (() => {
    if (code === "ECONNREFUSED") return "connection refused";
    if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
    if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "host unreachable";
    if (code === "ETIMEDOUT") return "timed out";
    if (code === MULTIPLE_LOCATION) return "invalid HTTP response (two different Location headers)";
    if (code === UNSUPPORTED_TRANSFER_CODING) {
      return "invalid HTTP response (unsupported transfer coding)";
    }
    if (code.startsWith("HPE_") || /parse error|invalid http/i.test(text)) {
      return "invalid HTTP response";
    }
    if (code === CORRUPT_BODY) return "corrupt compressed body";
    if (TLS_CODES.test(code) || TLS_CODES.test(text)) return `TLS error (${code || text})`;
    if (/socket hang up|closed|reset|broken pipe/i.test(text)) return "connection closed";
    return null;
  })();
  // What the network threw stays as the cause, for the log line of an unexpected error.
  const cause = { cause: error };
  if (code === "ETIMEDOUT") return new ApiError("ETIMEOUT", `${subject} timed out.`, cause);
  if (reason === null) {
    log.warn("unexpected fetch failure", { code, error: causeChain(error) });
    return new ApiError("EFETCH", `${subject} could not be reached.`, cause);
  }
  return new ApiError("EFETCH", `${subject} could not be reached: ${reason}.`, cause);
}
