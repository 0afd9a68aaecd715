/**
 * What a query may put in `headers.*`: valid header values only (EINVALQUERY naming the
 * parameter otherwise, never a cached target error), and never the API key, in any spelling.
 */
import assert from "node:assert/strict";
import { ApiError } from "../../lib/util/errors.ts";
import { parseParams } from "../../lib/params/mod.ts";
import { queryApiKey } from "../../lib/api/plan.ts";
import { html, q, serve, testApp, testConfig } from "../_fixtures.ts";

const parse = (query: string) => parseParams(new URLSearchParams(query), { maxTimeoutMs: 28_000 });

const KEY_SPELLINGS = [
  "apiKey",
  "apikey",
  "APIKey",
  "APIKEY",
  "api_key",
  "API_KEY",
  "api-key",
  "Api-Key",
  "x-api-key",
  "X-API-KEY",
  "x_api_key",
  "xApiKey",
  "XAPIKey",
  "x-apikey",
];

Deno.test("every spelling of headers.apiKey is the API key and is never forwarded", () => {
  for (const name of KEY_SPELLINGS) {
    const query = `url=x&headers.${name}=secret&headers.cookie=a=1`;
    assert.equal(queryApiKey(new URLSearchParams(query)), "secret", name);
    assert.deepEqual(parse(query).headers, { cookie: "a=1" }, name);
  }
  // Near misses are ordinary headers.
  for (const name of ["api-keys", "x-api-key-id", "apikey2"]) {
    assert.equal(queryApiKey(new URLSearchParams(`headers.${name}=v`)), null, name);
  }
});

Deno.test("a header value with control or non-Latin-1 characters is EINVALQUERY naming it", () => {
  const bad: [string, string][] = [
    ["user-agent", "Mozilla é☃"],
    ["user_agent", "emoji 😀"],
    ["x-tab-ok-but-bell", "a\u0007b"],
    ["cookie", "a=1\u0000"],
    ["x-escape", "\u001b[31m"],
    ["x-del", "a\u007fb"],
    ["x-c1", "a\u0085b"],
  ];
  for (const [name, value] of bad) {
    const query = `url=x&headers.${name}=${encodeURIComponent(value)}`;
    assert.throws(() => parse(query), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "EINVALQUERY");
      assert.match(error.message, new RegExp(`\`headers\\.${name}\``));
      return true;
    }, name);
  }
  assert.deepEqual(
    parse(`url=x&headers.user-agent=${encodeURIComponent("Mozilla/5.0 (é; tab\there)")}`).headers,
    { "user-agent": "Mozilla/5.0 (é; tab\there)" },
  );
});

Deno.test("the target sees Latin-1 headers as sent, no key spelling, and bad values cost nothing", async () => {
  const seen: Headers[] = [];
  await using site = serve({
    "/": (request) => {
      seen.push(request.headers);
      return html("<title>t</title>");
    },
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const keys = KEY_SPELLINGS.map((name) => `&headers.${name}=secret-${name}`).join("");
  const onFree = await app.json(q(`${site.origin}/`, `&ping=false${keys}`));
  assert.equal(onFree.body.code, "EPRO", "a key sent to the free endpoint is refused");
  assert.equal(seen.length, 0);

  const ua = encodeURIComponent("Mozilla é");
  const ok = await app.json(q(`${site.origin}/`, `&ping=false&headers.user-agent=${ua}`));
  assert.equal(ok.status, 200);
  assert.equal(seen.length, 1);
  assert.equal(
    new TextEncoder().encode(seen[0]!.get("user-agent")!).length,
    "Mozilla é".length + 1,
  );

  const snow = encodeURIComponent("Mozilla é☃");
  for (let i = 0; i < 2; i++) {
    const refused = await app.json(q(`${site.origin}/`, `&ping=false&headers.user-agent=${snow}`));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, "EINVALQUERY");
    assert.match(refused.body.message, /`headers\.user-agent`/);
  }
  assert.equal(seen.length, 1, "the target was never asked");
});

Deno.test("headers.* holds at most 32 headers of at most 8192 characters each", () => {
  const many = (count: number) =>
    Array.from({ length: count }, (_, i) => `&headers.x-h${i}=${i}`).join("");
  assert.equal(Object.keys(parse(`url=x${many(32)}`).headers).length, 32);
  // Only the query's size bounded them: thousands were checked, kept and sent on every hop.
  for (const count of [33, 5_000]) {
    assert.throws(() => parse(`url=x${many(count)}`), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "EINVALQUERY");
      assert.equal(
        error.message,
        `The parameter \`headers\` names ${count} headers; at most 32 are sent.`,
      );
      return true;
    });
  }
  assert.equal(parse(`url=x&headers.cookie=${"a".repeat(8192)}`).headers.cookie!.length, 8192);
  assert.throws(() => parse(`url=x&headers.cookie=${"a".repeat(8193)}`), (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, "EINVALQUERY");
    assert.equal(error.message, "The parameter `headers.cookie` is longer than 8192 characters.");
    return true;
  });
});

Deno.test("x-api-header-* counts toward the same limit, and the target is never asked", async () => {
  let hits = 0;
  await using site = serve({
    "/": () => {
      hits++;
      return html("<title>t</title>");
    },
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const headers = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`x-api-header-x-h${i}`, `${i}`]),
  );
  const query = Array.from({ length: 20 }, (_, i) => `&headers.x-q${i}=${i}`).join("");
  const refused = await app.json(q(`${site.origin}/`, `&ping=false${query}`), { headers });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.code, "EINVALQUERY");
  assert.match(refused.body.message, /`headers` names 40 headers; at most 32/);
  assert.equal(hits, 0);
  const ok = await app.json(q(`${site.origin}/`, "&ping=false"), { headers });
  assert.equal(ok.status, 200);
  assert.equal(hits, 1);
});
