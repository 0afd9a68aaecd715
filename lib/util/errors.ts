/** The contract's error codes, each with its HTTP status. */
export const ERROR_STATUS = {
  EINVALURL: 400,
  EINVALQUERY: 400,
  EFORBIDDENURL: 400,
  EMAXREDIRECTS: 400,
  ETIMEOUT: 504,
  EFETCH: 502,
  EPROXY: 502,
  ENOTFOUND: 404,
  EPRO: 400,
  EAUTH: 401,
  ERATE: 429,
  EBRWSRTIMEOUT: 504,
  EBUSY: 503,
  EBROWSER: 503,
  EUNAVAILABLE: 503,
  EFATAL: 500,
  // Not in the API table: routes that do not exist and methods that are not allowed.
  ENOROUTE: 404,
  EMETHOD: 405,
} as const;

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

/** The contract's error envelope: `fail` for 4xx, `error` for 5xx. */
export function errorBody(error: ApiError, url?: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status: error.status >= 500 ? "error" : "fail",
    code: error.code,
    message: error.message,
  };
  if (url !== undefined) body.url = url;
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
