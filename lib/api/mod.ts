/**
 * The API route, second in a request's path (after createHandler): picks the plan, checks the
 * query (prepare) while the daily count runs (admit), arms the request's deadline only
 * when work starts, gets the payload from the response cache or buildPayload() (cachedPayload) and renders the envelope, a `filter`ed envelope or one `embed`ded field. /oembed
 * answers on the same pipeline through an `Endpoint`. Errors are thrown to the handler.
 */
import { ApiError, isApiError } from "../util/errors.ts";
import type { Exchange } from "./exchange.ts";
import type { ApiServices } from "./memo.ts";
import { embedResponse } from "./embed.ts";
import { filterData } from "./filter.ts";
import { buildPayload, type Payload } from "./payload.ts";
import { apiKeyOf, queryApiKey, selectPlan } from "./plan.ts";
import { apiHeaders, jsonResponse, newMeta, type ResponseMeta } from "./respond.ts";
import { admit } from "./admit.ts";
import { prepare, type Prepared } from "./prepare.ts";
import type { Params } from "../params/mod.ts";
import { cachedPayload } from "./cache_step.ts";
import { callersOwn } from "../cache/mod.ts";
import { templatedJsonResponse } from "./templates.ts";
import { preferredEncoding } from "../util/compress.ts";
import { withApiHeaders } from "./api_headers.ts";
import { abortable, Deadline } from "../util/deadline.ts";
import { ClientWait } from "../util/client_gone.ts";
import { currentSandboxRuntime } from "../browser/function/runtime.ts";

export interface ApiRequest {
  /** The request, its parsed URL and id; its `api` is set here, for the error boundary. */
  exchange: Exchange;
  /** Socket address of the client. */
  remoteAddr: string;
  arrivedOnProPort: boolean;
}

/** A checked, admitted request and its (cached) payload, for an endpoint to answer. */
export interface Checked {
  request: Request;
  params: Params;
  target: URL;
  meta: ResponseMeta;
  /** The payload as cached (JSON text), and parsed on demand. */
  json: string;
  payload: () => Payload;
  /** The request's deadline, armed on first use (a cache hit never pays for its timer). */
  deadline: Deadline;
}

/**
 * An answer built on the API's pipeline (plan, key and daily count, query preparation, the
 * response cache, buildPayload): the API itself, and /oembed (lib/oembed_endpoint/).
 */
export interface Endpoint {
  /** The query the pipeline reads, when not the request's own; a throw is a bad query. */
  query?: () => URL;
  /** Keeps this endpoint's cache entries apart from the API's. */
  cacheScope?: string;
  /** More work on a fresh payload, inside the deadline, before the cache stores it. */
  complete?: (payload: Payload, signal: AbortSignal) => Promise<Payload>;
  render: (checked: Checked, services: ApiServices) => Promise<Response> | Response;
}

/** The API's own answer: the envelope, trimmed by `filter`, or one field with `embed`. */
async function renderApi(checked: Checked, services: ApiServices): Promise<Response> {
  const { request, params, json, payload } = checked;
  const headers = apiHeaders(checked.meta);
  if (params.embed) {
    const { deadline } = checked;
    // A client that hung up reads no embedded field: the fetch of its bytes stops too.
    using client = new ClientWait(request.signal);
    const signal = AbortSignal.any([deadline.signal, client.signal]);
    const embedded = embedResponse(services, {
      data: payload().data,
      path: params.embed,
      signal,
      headers,
    });
    return await deadline.run(abortable(embedded, client.signal));
  }
  if (!params.filter) {
    return templatedJsonResponse(json, 200, headers, {
      encoding: preferredEncoding(request),
      templates: services.memo.templates,
    });
  }
  const { data, ...rest } = payload();
  return jsonResponse({ ...rest, data: filterData(data, params.filter) }, 200, headers);
}

async function answer(
  services: ApiServices,
  api: ApiRequest,
  meta: ResponseMeta,
  endpoint: Endpoint,
): Promise<Response> {
  const { config } = services;
  const { request, url } = api.exchange;
  let prepared: Prepared | null = null;
  let invalid: unknown = null;
  try {
    prepared = prepare(endpoint.query ? endpoint.query() : withApiHeaders(url, request), services);
  } catch (error) {
    invalid = error;
  }
  // Counting runs while the cache is looked up (one round trip on Redis, not two); its verdict
  // still comes first: a refused request gets the plan's error, even with a bad query.
  const admitted = meta.timings.time("admit", () =>
    admit(services, {
      plan: meta.plan,
      // A checked query has its headers.apiKey read already; a bad one is read here.
      apiKey: apiKeyOf(
        request,
        prepared ? prepared.apiKey : queryApiKey(url.searchParams),
      ),
      url,
      remoteAddr: api.remoteAddr,
      forwardedFor: request.headers.get("x-forwarded-for"),
    })).then((headers) => {
      meta.extra = headers;
    });
  admitted.catch(() => {});
  if (!prepared) {
    await admitted;
    throw invalid;
  }
  const { params, target, credentialed, rules } = prepared;
  if (params.proxy && meta.plan !== "pro") {
    await admitted;
    throw new ApiError("EPROXY", "The parameter `proxy` is available on the pro endpoint only.");
  }
  const runtime = params.function === null ? null : currentSandboxRuntime();
  if (runtime && "refused" in runtime) {
    await admitted;
    throw new ApiError("EFUNCTIONUNAVAILABLE", runtime.refused);
  }
  meta.targetHost = target.host;
  meta.private = credentialed;

  const { timings } = meta;
  // Armed only when work that can take time starts (a cache miss or an embed fetch), for the
  // time left since the request arrived.
  const ms = params.timeoutMs ?? config.requestTimeoutMs;
  using limit = new Deadline({
    timeoutMs: ms,
    startedAt: meta.startedAt,
    error: () => new ApiError("ETIMEOUT", `The request took longer than ${ms} ms.`),
  });
  try {
    const compute = async (abandoned: AbortSignal) => {
      // Its own deadline, of the same end: a STALE refresh outlives this request (and `limit`).
      using work = new Deadline({
        timeoutMs: ms,
        startedAt: meta.startedAt,
        error: () => new ApiError("ETIMEOUT", `The request took longer than ${ms} ms.`),
      });
      const signal = work.signal;
      // Every request waiting for it went away: the fetch, the DOM work, the visit stop.
      const stop = () => work.fail(abandoned.reason);
      abandoned.addEventListener("abort", stop, { once: true });
      try {
        const result = await work.run(
          buildPayload({ params, target, services, signal, credentialed, rules, timings }),
        );
        if (!endpoint.complete) return result;
        const payload = await work.run(endpoint.complete(result.payload, signal));
        return { ...result, payload };
      } catch (error) {
        const failure = work.reason && !isApiError(error) ? work.reason : error;
        // Given up within a `timeout` shorter than the service's: that says nothing of the
        // target for the requests after this one.
        const hasty = params.timeoutMs != null && params.timeoutMs < config.requestTimeoutMs;
        if (hasty && isApiError(failure) && failure.code === "ETIMEOUT") throw callersOwn(failure);
        throw failure;
      } finally {
        abandoned.removeEventListener("abort", stop);
      }
    };
    const { payload, json } = await cachedPayload(services, {
      params,
      target,
      meta,
      compute,
      wait: (work) => limit.run(work),
      signal: request.signal,
      gate: admitted,
      scope: endpoint.cacheScope,
    });
    meta.respondFrom = performance.now();
    const checked = { request, params, target, meta, json, payload, deadline: limit };
    return await endpoint.render(checked, services);
  } catch (error) {
    if (limit.reason && !isApiError(error)) throw limit.reason;
    throw error;
  }
}

/**
 * One API request, start to finish (or, with `endpoint`, another answer on the same pipeline).
 * It throws what fails; the handler's error boundary (errorAnswer) answers it with the
 * headers gathered in `exchange.api`.
 */
export async function handleApi(
  services: ApiServices,
  api: ApiRequest,
  endpoint: Endpoint = { render: renderApi },
): Promise<Response> {
  const { exchange } = api;
  using _counted = services.inFlight.enter();
  const plan = selectPlan(exchange.request, services, api.arrivedOnProPort);
  const meta = exchange.api = newMeta(exchange.requestId, plan, exchange.startedAt);
  return await answer(services, api, meta, endpoint);
}
