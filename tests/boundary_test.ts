import assert from "node:assert/strict";
import { errorAnswer, type Exchange } from "../lib/handler/boundary.ts";
import { ApiError, causeChain } from "../lib/util/errors.ts";
import { toApiError } from "../lib/fetch/failure.ts";
import { setQuiet } from "../lib/util/log.ts";
import { evalTs } from "./_eval.ts";

setQuiet(true);

function exchange(query: string, headers: Record<string, string> = {}): Exchange {
  const request = new Request(`http://localhost:3000/${query}`, { headers });
  return {
    request,
    url: new URL(request.url),
    requestId: "00000000-0000-4000-8000-000000000001",
    startedAt: performance.now(),
  };
}

Deno.test("causeChain() names each cause, never a stack, never a secret", async (t) => {
  await t.step("the chain, with codes", () => {
    const root = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const error = new TypeError("fetch failed", { cause: root });
    assert.equal(
      causeChain(new ApiError("EFETCH", "The URL could not be reached.", { cause: error })),
      "ApiError [EFETCH]: The URL could not be reached. <- TypeError: fetch failed <- " +
        "Error [ECONNRESET]: read ECONNRESET",
    );
  });
  await t.step("userinfo, API keys and the request's secrets become ***", () => {
    const error = new Error(
      "GET http://admin:hunter2@a.test/x with lp_abcDEF123_-xyz and cookie s%C3%A9same s\u00e9same",
    );
    assert.equal(
      causeChain(error, ["s\u00e9same"]),
      "Error: GET http://***@a.test/x with lp_*** and cookie *** ***",
    );
  });
  await t.step("a loop or a deep chain ends; things that are not errors are named", () => {
    const loop = new Error("again");
    (loop as { cause?: unknown }).cause = loop;
    assert.equal(causeChain(loop), "Error: again");
    let deep: unknown = "bottom";
    for (let i = 0; i < 10; i++) deep = new Error(`level ${i}`, { cause: deep });
    assert.equal(causeChain(deep).split(" <- ").length, 5);
    assert.equal(causeChain("plain text"), "string: plain text");
    assert.ok(!causeChain(new Error("x")).includes("    at "));
  });
});

Deno.test("toApiError() keeps what the network threw as the cause", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
  const error = toApiError(refused, 'The URL "http://a.test/"');
  assert.equal(error.code, "EFETCH");
  assert.equal(error.cause, refused);
  const timedOut = Object.assign(new Error("timeout"), { code: "ETIMEDOUT" });
  assert.equal(toApiError(timedOut, "The URL").cause, timedOut);
});

Deno.test("errorAnswer() turns an ApiError into its envelope, status and headers", async () => {
  const ex = exchange("assets/x.png");
  const response = errorAnswer(
    new ApiError("EUNAVAILABLE", "Shared state (Redis) is unavailable.", {
      headers: { "retry-after": "5" },
    }),
    ex,
    "https://links.example",
  );
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("retry-after"), "5");
  assert.equal(response.headers.get("x-request-id"), ex.requestId);
  assert.equal(ex.code, "EUNAVAILABLE");
  const body = await response.json();
  assert.deepEqual(body, {
    status: "error",
    code: "EUNAVAILABLE",
    message: "Shared state (Redis) is unavailable.",
    id: ex.requestId,
    more: "https://links.example/errors#eunavailable",
    data: { url: "Shared state (Redis) is unavailable." },
  });
});

Deno.test("errorAnswer() logs anything else once, without the request's secrets", async () => {
  const boundary = new URL("../lib/handler/boundary.ts", import.meta.url).href;
  const logModule = new URL("../lib/util/log.ts", import.meta.url).href;
  // The thrown error quotes every secret the request holds, as a careless library might.
  const script = `import { errorAnswer } from "${boundary}";
import { inRequest } from "${logModule}";
const target = encodeURIComponent("http://user:pass-7f2a@a.test/");
const request = new Request("http://localhost:3000/?url=" + target +
  "&headers.cookie=cookie-5b1e&headers.x-token=token-8c3d", {
  headers: { "x-api-key": "lp_key-4e9f", authorization: "Bearer auth-2d6b" },
});
const exchange = { request, url: new URL(request.url), requestId: "id-1", startedAt: 0 };
const cause = new Error("sent cookie-5b1e token-8c3d lp_key-4e9f auth-2d6b to http://user:pass-7f2a@a.test/");
const response = inRequest("id-1", () => errorAnswer(new RangeError("broke", { cause }), exchange, "http://localhost:3000"));
console.log(response.status, await response.text());`;
  const { stdout, stderr } = await evalTs(script);
  const lines = stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  assert.equal(lines.length, 1, stderr);
  assert.equal(lines[0].msg, "unexpected error");
  assert.equal(lines[0].requestId, "id-1");
  assert.equal(
    lines[0].error,
    "RangeError: broke <- Error: sent *** *** lp_*** *** to http://***@a.test/",
  );
  assert.match(stdout, /^500 /);
  assert.match(stdout, /"code":"EFATAL"/);
  for (const secret of ["cookie-5b1e", "token-8c3d", "key-4e9f", "auth-2d6b", "pass-7f2a"]) {
    assert.ok(!(stdout + stderr).includes(secret), `${secret} leaked`);
  }
  assert.ok(!stdout.includes("broke"), "the cause stays in the log");
});
