import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { jsonTextResponse } from "../../lib/api/respond.ts";
import { templatedJsonResponse, Templates } from "../../lib/api/templates.ts";
import { html, serve, testApp, testConfig } from "../_fixtures.ts";

const templates = new Templates();

function headersOf(response: Response): [string, string][] {
  return [...response.headers];
}

function apiLikeHeaders(requestId: string, remaining: number): Record<string, string> {
  return {
    "access-control-allow-origin": "*",
    "x-pricing-plan": "free",
    "x-request-id": requestId,
    "x-cache-status": "HIT",
    "x-cache-ttl": String(1000 - remaining),
    "x-response-time": `${remaining % 3}ms`,
    "cache-control": `public, max-age=${remaining}`,
    "x-rate-limit-limit": "50",
    "x-rate-limit-remaining": String(remaining),
  };
}

Deno.test("a templated answer is the same as one built afresh, per-request headers included", async () => {
  const json = JSON.stringify({ status: "success", data: { title: "templated" } });
  for (let i = 0; i < 5; i++) {
    const headers = apiLikeHeaders(crypto.randomUUID(), 40 - i);
    const templated = templatedJsonResponse(json, 200, { ...headers }, {
      encoding: null,
      templates,
    });
    const fresh = jsonTextResponse(json, 200, { ...headers });
    assert.deepEqual(headersOf(templated), headersOf(fresh));
    assert.equal(templated.status, 200);
    assert.equal(await templated.text(), json);
  }
});

Deno.test("a MISS or BYPASS answer, which never repeats, is built afresh and leaves no template", async () => {
  const own = new Templates();
  const json = JSON.stringify({ status: "success", data: { title: "cold" } });
  for (const status of ["MISS", "BYPASS"]) {
    const headers = { ...apiLikeHeaders("m", 2), "x-cache-status": status };
    const answer = templatedJsonResponse(json, 200, { ...headers }, {
      encoding: null,
      templates: own,
    });
    assert.deepEqual(headersOf(answer), headersOf(jsonTextResponse(json, 200, { ...headers })));
    assert.equal(await answer.text(), json);
  }
  assert.equal(own.size, 0);
  await templatedJsonResponse(json, 200, apiLikeHeaders("h", 1), { encoding: null, templates: own })
    .body?.cancel();
  assert.equal(own.size, 1);
});

Deno.test("templates are told apart by status, fixed headers and encoding", async () => {
  const json = JSON.stringify({ status: "success", data: { title: "x".repeat(2000) } });
  const hit = templatedJsonResponse(json, 200, apiLikeHeaders("a", 9), {
    encoding: null,
    templates,
  });
  const stale = templatedJsonResponse(
    json,
    200,
    { ...apiLikeHeaders("b", 8), "x-cache-status": "STALE" },
    { encoding: null, templates },
  );
  const other = templatedJsonResponse(json, 203, apiLikeHeaders("c", 7), {
    encoding: null,
    templates,
  });
  assert.equal(hit.headers.get("x-cache-status"), "HIT");
  assert.equal(stale.headers.get("x-cache-status"), "STALE");
  assert.equal(other.status, 203);

  const zipped = templatedJsonResponse(json, 200, apiLikeHeaders("d", 6), {
    encoding: "gzip",
    templates,
  });
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  const bytes = new Uint8Array(await zipped.arrayBuffer());
  assert.equal(Number(zipped.headers.get("content-length")), bytes.length);
  assert.equal(new TextDecoder().decode(gunzipSync(bytes)), json);
  const plain = templatedJsonResponse(json, 200, apiLikeHeaders("e", 5), {
    encoding: null,
    templates,
  });
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(await plain.text(), json);

  // Under 1 KB, gzip is not worth it even when the client takes it.
  const small = templatedJsonResponse("{}", 200, apiLikeHeaders("f", 4), {
    encoding: "gzip",
    templates,
  });
  assert.equal(small.headers.get("content-encoding"), null);
  assert.equal(await small.text(), "{}");
  for (const response of [hit, stale, other]) await response.body?.cancel();
});

Deno.test("a per-request header missing from one answer is not carried over from the template", () => {
  const json = JSON.stringify({ status: "success", data: { title: "missing" } });
  const full = apiLikeHeaders("g", 3);
  templatedJsonResponse(json, 200, { ...full }, { encoding: null, templates });
  const { "x-rate-limit-remaining": _, ...withoutRemaining } = full;
  const response = templatedJsonResponse(json, 200, withoutRemaining, {
    encoding: null,
    templates,
  });
  assert.equal(response.headers.get("x-rate-limit-remaining"), null);
});

Deno.test("cache hits through the API: fresh per-request headers, gzip when taken, same document", async () => {
  const paragraph = "<p>Words for a description long enough to pass one kilobyte.</p>";
  await using target = serve({
    "/long": () =>
      html(
        `<title>Long</title><meta name="description" content="${"long ".repeat(300)}">${paragraph}`,
      ),
  });
  await using app = await testApp(testConfig({ trustPorts: [target.port] }));
  const query = `?url=${encodeURIComponent(`${target.origin}/long`)}`;
  const miss = await app.get(query);
  const document = await miss.text();
  assert.equal(miss.headers.get("x-cache-status"), "MISS");
  assert.ok(document.length > 1024, `${document.length} bytes`);

  const ids = new Set<string>();
  const remaining: number[] = [];
  for (let i = 0; i < 3; i++) {
    const hit = await app.get(query, { headers: { "accept-encoding": "gzip" } });
    assert.equal(hit.headers.get("x-cache-status"), "HIT");
    assert.equal(hit.headers.get("content-encoding"), "gzip");
    assert.match(hit.headers.get("vary")!, /Accept-Encoding/);
    const bytes = new Uint8Array(await hit.arrayBuffer());
    assert.equal(new TextDecoder().decode(gunzipSync(bytes)), document);
    ids.add(hit.headers.get("x-request-id")!);
    remaining.push(Number(hit.headers.get("x-rate-limit-remaining")));
  }
  assert.equal(ids.size, 3);
  assert.deepEqual(remaining, [remaining[0]!, remaining[0]! - 1, remaining[0]! - 2]);

  const plain = await app.get(query);
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(await plain.text(), document);
  const head = await app.get(query, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("x-cache-status"), "HIT");
  await head.body?.cancel();
});
