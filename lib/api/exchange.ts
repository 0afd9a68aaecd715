/**
 * One request on its way to an answer, as every route and the error boundary see it. Its type
 * lives here, below the handler, because the API fills in its part (the answer's headers).
 */
import type { ErrorCode } from "../util/errors.ts";
import type { ResponseMeta } from "./respond.ts";

/** What the answer's log line and the request metrics read of the route that took a request. */
export interface RouteTag {
  /**
   * What the answer's log line calls the route: linkpeek's own names, never the path (an asset
   * path is a capability for a private capture, and the API's query holds the target).
   */
  name: string;
  /** Polled by orchestrators and scrapers every few seconds: its successes log at debug. */
  probe?: boolean;
  /** Counted by the request metrics (by plan, status and code). */
  metered?: boolean;
}

/** One request on its way to an answer, for every route. */
export interface Exchange {
  request: Request;
  /** The request URL, parsed once. */
  url: URL;
  requestId: string;
  /** Arrival on performance.now()'s clock. */
  startedAt: number;
  /** Set by the API route: its error answers carry the API's headers. */
  api?: ResponseMeta;
  /** The contract code of an error answer. */
  code?: ErrorCode;
  /** The route that took the request (ROUTES), if any. */
  route?: RouteTag;
}
