/**
 * GET /oembed: linkpeek as an oEmbed 1.0 provider for any URL. It runs on the API's own pipeline
 * (handleApi: plans, key check and daily count, query preparation, response cache,
 * buildPayload) with a query of its own (readOembedRequest), asks the target's provider for its embed
 * (withProviderEmbed), and answers in JSON or XML. Errors keep the API's
 * codes and JSON envelope, with oEmbed's statuses where it has one: ENOTFOUND 404 (nothing to
 * embed), an unknown format 501, EAUTH 401, EPRO 403.
 */
import { ApiError, type ErrorCode, isApiError } from "../util/errors.ts";
import { type ApiRequest, type Endpoint, handleApi } from "../api/mod.ts";
import { apiHeaders } from "../api/respond.ts";
import type { ApiServices } from "../api/memo.ts";
import { oembedAnswer } from "./answer.ts";
import { withProviderEmbed } from "./target_embed.ts";
import { type OembedRequest, readOembedRequest } from "./request.ts";
import { oembedResponse } from "./serialize.ts";

function endpointFor(services: ApiServices, request: OembedRequest): Endpoint {
  return {
    query: () => request.query,
    cacheScope: request.cacheScope,
    complete: (payload, signal) =>
      withProviderEmbed(payload, {
        fetcher: services.fetcher,
        signal,
        maxWidth: request.maxWidth,
        maxHeight: request.maxHeight,
        ownOrigin: new URL(services.config.publicUrl).origin,
      }),
    render: ({ payload, target, meta }) => {
      const answer = oembedAnswer(payload(), { request, meta, target });
      return oembedResponse(answer, request.format, apiHeaders(meta));
    },
  };
}

/**
 * Where /oembed's statuses differ from the API's. The plan errors as oEmbed reads them: EAUTH
 * stays 401 (the spec's "private resource": the consumer shows a plain link); a key sent to the
 * free endpoint (EPRO) is 403, refused rather than malformed. ERATE stays 429 with
 * Retry-After: a consumer may try again tomorrow. An unknown format is EINVALQUERY with 501
 * (PASSED_PARAMS).
 */
export const OEMBED_STATUS: Partial<Record<ErrorCode, number>> = { EPRO: 403 };
export { FORMAT_STATUS, MAX_PIXELS, PASSED_PARAMS } from "./request.ts";

function oembedStatus(error: unknown): unknown {
  if (!isApiError(error)) return error;
  const status = OEMBED_STATUS[error.code];
  if (status === undefined || status === error.status) return error;
  return new ApiError(error.code, error.message, { headers: error.headers, cause: error, status });
}

export async function handleOembed(services: ApiServices, api: ApiRequest): Promise<Response> {
  let endpoint: Endpoint;
  try {
    endpoint = endpointFor(services, readOembedRequest(api.exchange.url));
  } catch (error) {
    // A bad oEmbed parameter is a bad query: the plan's verdict still comes first.
    endpoint = {
      query: () => {
        throw error;
      },
      render: () => {
        throw error;
      },
    };
  }
  try {
    return await handleApi(services, api, endpoint);
  } catch (error) {
    throw oembedStatus(error);
  }
}
