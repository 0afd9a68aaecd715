/** The contract's error codes, each with its HTTP status. */
export const ERROR_STATUS = {
  EINVALURL: 400,
  EINVALQUERY: 400,
  EFORBIDDENURL: 400,
  EMAXREDIRECTS: 400,
  ETIMEOUT: 504,
  EFETCH: 502,
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

  constructor(
    code: ErrorCode,
    message: string,
    options: { headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
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
