/** The `headers` a function receives: what the browser sent, never the caller's secrets. */
import assert from "node:assert/strict";
import { functionHeaders } from "../../lib/browser/function/headers.ts";

Deno.test("functionHeaders() keeps the browser's headers and drops the caller's", () => {
  const sent = {
    "User-Agent": "Mozilla/5.0 linkpeek-test",
    accept: "text/html",
    host: "example.invalid",
    "Proxy-Connection": "keep-alive",
    "X-Token": "t0ken",
    Cookie: "session=1",
    authorization: "Basic dXNlcjpwYXNz",
  };
  const caller = { "x-token": "t0ken", "User-Agent": "Mozilla/5.0 linkpeek-test" };
  assert.deepEqual(functionHeaders(sent, caller), {
    "user-agent": "Mozilla/5.0 linkpeek-test",
    accept: "text/html",
    host: "example.invalid",
  });
  // Credentials are dropped even when the caller gave no headers.
  assert.deepEqual(Object.keys(functionHeaders(sent, undefined)).sort(), [
    "accept",
    "host",
    "user-agent",
    "x-token",
  ]);
});
