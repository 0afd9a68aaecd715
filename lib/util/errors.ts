/**
 * The contract's error codes: each with its HTTP status and what it means, the one table that
 * the answers' status, the OpenAPI document and the /errors page (every answer's `more`) read.
 */
export const ERRORS = {
  EINVALURL: {
    status: 400,
    when: "The url is missing, malformed, or not http/https (also as a redirect target).",
  },
  EINVALQUERY: {
    status: 400,
    when: "A parameter's value is invalid; the message names it (parameters with a code of " +
      "their own below use it).",
  },
  EINVALTTL: { status: 400, when: "ttl is not a duration from 1m to 31d, nor min or max." },
  EINVALSTTL: {
    status: 400,
    when: "staleTtl is not a duration, true or false, or is longer than ttl.",
  },
  EINVALPROXY: { status: 400, when: "proxy is not an http(s) proxy URL linkpeek can use." },
  EINVALDATA: {
    status: 400,
    when: "A data.<field> rule is not a valid rule; the message names it.",
  },
  EINVALFUNCTION: {
    status: 400,
    when: "function is not a JavaScript function, or its br#/gz#/lz# payload does not decode.",
  },
  EINVALOVERLAYBG: {
    status: 400,
    when: "screenshot.overlay.background is not a CSS color, gradient or image URL.",
  },
  EPAGERANGE: { status: 400, when: "pdf.pageRanges is backwards or outside the document." },
  EFORBIDDENURL: {
    status: 400,
    when: "The target is, or resolves to, a non-public address, at any hop.",
  },
  EMAXREDIRECTS: { status: 400, when: "More than 10 redirects, or a loop." },
  ETIMEOUT: { status: 504, when: "The target or the whole request was too slow (timeout)." },
  EFETCH: { status: 502, when: "The target could not be reached (DNS, refused, TLS)." },
  EPROXYFAILED: {
    status: 502,
    when: "The proxy refused, failed, did not answer in time or asked for credentials (names " +
      "its host only). linkpeek's own code: Microlink's EPROXY means something else.",
  },
  ENOTFOUND: { status: 404, when: "embed names a field that is null." },
  EPRO: { status: 400, when: "An API key was sent to the free endpoint: send it to the pro one." },
  EPROXY: { status: 400, when: "proxy was sent to the free endpoint: it is for pro requests." },
  EAUTH: { status: 401, when: "The pro endpoint was called without a valid API key (x-api-key)." },
  ERATE: { status: 429, when: "The daily limit is reached; Retry-After says when it resets." },
  EBRWSRTIMEOUT: { status: 504, when: "The browser did not finish the page in time." },
  EBUSY: { status: 503, when: "Saturated (browser pages, workers): retry after Retry-After." },
  EBROWSER: { status: 503, when: "The browser is unavailable." },
  EFUNCTIONUNAVAILABLE: {
    status: 501,
    when: "function cannot run on this linkpeek: it is a compiled binary, and the function's " +
      "sandbox is a deno run process. linkpeek's own code (Microlink has none for it).",
  },
  EUNAVAILABLE: {
    status: 503,
    when: "The shared store (Redis) is unreachable (recovers by itself), or holds a damaged key " +
      "record (the message names it).",
  },
  EFATAL: {
    status: 500,
    when: "Anything unexpected: logged with the request id (the answer's id).",
  },
  // Not in the API table: routes that do not exist and methods that are not allowed.
  ENOROUTE: { status: 404, when: "No such route." },
  EMETHOD: { status: 405, when: "The method is not allowed on this route." },
} as const satisfies Record<string, { status: number; when: string }>;

/** Each code's HTTP status. */
export const ERROR_STATUS = Object.fromEntries(
  Object.entries(ERRORS).map(([code, { status }]) => [code, status]),
) as { readonly [C in keyof typeof ERRORS]: typeof ERRORS[C]["status"] };

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The one error callers branch on: it carries a contract code and a message that names
 * the failing value. Anything else thrown is reported as EFATAL.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After for ERATE/EBUSY/EUNAVAILABLE. */
  readonly headers: Record<string, string>;

  /**
   * `cause` is what went wrong underneath (ES2022 `{ cause }`): it reaches the log line of an
   * unexpected error (see causeChain), never an answer. `status` replaces the code's own where
   * another protocol's statuses apply (/oembed answers EPRO with 403).
   */
  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string>; cause?: unknown; status?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.headers = options.headers ?? {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Where the /errors page documents `code` (its anchor is the code in lower case). */
export function errorDocsUrl(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl}/errors#${code.toLowerCase()}`;
}

/**
 * The contract's error envelope: `fail` for 4xx, `error` for 5xx, with Microlink's `id` (the
 * request id, as x-request-id and the log line carry it) and `more` (this code's documentation).
 */
export function errorBody(
  error: ApiError,
  context: { url?: string; id?: string; publicUrl?: string } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status: error.status >= 500 ? "error" : "fail",
    code: error.code,
    message: error.message,
  };
  if (context.id !== undefined) body.id = context.id;
  if (context.publicUrl !== undefined) body.more = errorDocsUrl(context.publicUrl, error.code);
  if (context.url !== undefined) body.url = context.url;
  body.data = { url: error.message };
  return body;
}

const MAX_CAUSES = 5;
const MAX_MESSAGE_CHARS = 300;
/** `scheme://user:password@` in any text. */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;
/** linkpeek's API keys (see createKey) and signatures (`<key id>.<mac>`). */
const API_KEY = /\blp_[A-Za-z0-9_-]+/g;

/**
 * An error and its causes for a log line: `Name [code]: message <- Cause: message ...`, at
 * most five deep, each message cut short. Never a stack. URL userinfo, API keys and every
 * string in `secrets` (the request's header values, say) are replaced by `***`.
 */
export function causeChain(error: unknown, secrets: readonly string[] = []): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && parts.length < MAX_CAUSES) {
    if (seen.has(current)) break;
    seen.add(current);
    const e = current as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
    const name = typeof e.name === "string" ? e.name : typeof current;
    const code = typeof e.code === "string" || typeof e.code === "number" ? ` [${e.code}]` : "";
    const message = typeof e.message === "string" ? e.message : String(current);
    parts.push(`${name}${code}: ${redact(message, secrets).slice(0, MAX_MESSAGE_CHARS)}`);
    current = current instanceof Object ? e.cause : undefined;
  }
  return parts.join(" <- ");
}

function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(USERINFO, "$1***@").replace(API_KEY, "lp_***");
  // Longest first, so that a secret containing another is removed whole.
  const forms = secrets.flatMap((secret) => [secret, encodeURIComponent(secret)]);
  for (const secret of forms.sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.replaceAll(secret, "***");
  }
  return out;
}
