/**
 * `deno task bench:micro`: what an API answer's headers cost, the figure lib/api/templates.ts
 * quotes ("about 1 µs apiece", ~24 an answer). Per header = (all headers - none) / count; the
 * templated clone is what a cache hit pays instead.
 */
import { apiHeaders, jsonTextResponse, newMeta } from "../lib/api/respond.ts";
import { templatedJsonResponse, Templates } from "../lib/api/templates.ts";

const json = JSON.stringify({
  status: "success",
  data: {
    title: "A page",
    description: "x".repeat(300),
    url: "https://example.com/",
  },
});
const meta = newMeta(crypto.randomUUID(), "free", performance.now());
meta.cacheStatus = "HIT";
// The free plan's rate-limit headers and server-timing, as a real cache hit carries them.
meta.extra = {
  "x-rate-limit-limit": "50",
  "x-rate-limit-remaining": "49",
  "x-rate-limit-reset": "1700000000",
  "ratelimit": "limit=50, remaining=49, reset=3600",
  "ratelimit-policy": "50;w=86400",
  "server-timing": "cache;dur=1",
};
const headers = apiHeaders(meta);
const count = Object.keys(headers).length;
const templates = new Templates();

Deno.bench(
  `new Response, no headers`,
  { group: "answer", baseline: true },
  () => {
    new Response(json);
  },
);
Deno.bench(
  `new Response, the API's ${count} headers`,
  { group: "answer" },
  () => {
    jsonTextResponse(json, 200, headers, { encoding: null });
  },
);
Deno.bench(`templatedJsonResponse (cache hit)`, { group: "answer" }, () => {
  templatedJsonResponse(json, 200, {
    ...headers,
    "x-request-id": crypto.randomUUID(),
  }, {
    encoding: null,
    templates,
  });
});
