import assert from "node:assert/strict";
import { parseParams } from "../../lib/params/mod.ts";
import { queryApiKey } from "../../lib/api/plan.ts";
import { ApiError } from "../../lib/util/errors.ts";

const parse = (query: string) => parseParams(new URLSearchParams(query), { maxTimeoutMs: 28_000 });

/** Invalid, named, with EINVALQUERY or the parameter's own Microlink code. */
function assertInvalid(query: string, naming: string, code = "EINVALQUERY") {
  assert.throws(() => parse(query), (error: unknown) => {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${error}`);
    assert.equal(error.code, code);
    assert.equal(error.status, 400);
    assert.ok(error.message.includes(naming), `"${error.message}" should name ${naming}`);
    return true;
  });
}

Deno.test("parseParams() reads defaults when only url is given", () => {
  const params = parse("url=https://example.com");
  assert.equal(params.url, "https://example.com");
  assert.deepEqual(params.ping, { image: true, logo: true, audio: true, video: true });
  assert.equal(params.screenshot, null);
  assert.equal(params.prerender, "auto");
  assert.equal(params.audio, true);
  assert.equal(params.meta instanceof Set && params.meta.size, 11);
});

Deno.test("parseParams() accepts camelCase, snake_case and kebab-case alike", async (t) => {
  await t.step("top-level names", () => {
    assert.equal(parse("url=x&wait_for_selector=%23a").page.waitForSelector, "#a");
    assert.equal(parse("url=x&waitForSelector=%23a").page.waitForSelector, "#a");
    assert.equal(parse("url=x&stale_ttl=1m").staleTtlMs, 60_000);
  });
  await t.step("nested keys", () => {
    assert.deepEqual(parse("url=x&screenshot.full_page=true").screenshot, { fullPage: true });
    assert.deepEqual(parse("url=x&screenshot.fullPage=true").screenshot, { fullPage: true });
  });
  await t.step("header names", () => {
    for (const name of ["user_agent", "userAgent", "user-agent", "User-Agent"]) {
      assert.deepEqual(parse(`url=x&headers.${name}=bot`).headers, { "user-agent": "bot" });
    }
  });
});

Deno.test("parseParams() reads booleans, bare flags and objects that are also booleans", () => {
  assert.ok(parse("url=x&screenshot").screenshot);
  assert.equal(parse("url=x&screenshot=false").screenshot, null);
  assert.deepEqual(parse("url=x&screenshot=true&screenshot.type=jpeg").screenshot, {
    type: "jpeg",
  });
  assert.deepEqual(parse("url=x&ping.audio=false").ping, {
    image: true,
    logo: true,
    audio: false,
    video: true,
  });
  assert.deepEqual(parse("url=x&ping=false").ping, {
    image: false,
    logo: false,
    audio: false,
    video: false,
  });
  assertInvalid("url=x&screenshot=yes", "screenshot");
  assertInvalid("url=x&ping.audio=0", "ping.audio");
});

Deno.test("parseParams() turns element or overlay alone into a screenshot", () => {
  assert.deepEqual(parse("url=x&element=%23main").screenshot, { element: "#main" });
  assert.deepEqual(parse("url=x&screenshot.element=%23main").screenshot, { element: "#main" });
  assert.deepEqual(parse("url=x&overlay.browser=dark").screenshot, {
    overlay: { browser: "dark" },
  });
  assertInvalid("url=x&overlay.browser=blue", "overlay.browser");
});

Deno.test("parseParams() reads array items dotted by index", () => {
  assert.deepEqual(parse("url=x&waitUntil.1=load&waitUntil.0=domcontentloaded").page.waitUntil, [
    "domcontentloaded",
    "load",
  ]);
  assert.deepEqual(parse("url=x&click=%23a").page.click, ["#a"]);
  assert.deepEqual(
    parse("url=x&data.title.0.selector=h1&data.title.1.selector=title&data.price.selector=.p").data,
    { title: [{ selector: "h1" }, { selector: "title" }], price: { selector: ".p" } },
  );
});

Deno.test("parseParams() checks numbers, enums and durations", () => {
  assert.equal(parse("url=x&timeout=5s").timeoutMs, 5000);
  assert.equal(parse("url=x&ttl=1d").ttlMs, 86_400_000);
  assertInvalid("url=x&timeout=50s", "timeout");
  assertInvalid("url=x&timeout=soon", "timeout");
  assertInvalid("url=x&ttl=10s", "ttl", "EINVALTTL");
  assertInvalid("url=x&screenshot.quality=101", "screenshot.quality");
  assertInvalid("url=x&viewport.width=wide", "viewport.width");
  assertInvalid("url=x&prerender=maybe", "prerender");
});

Deno.test("parseParams() reads durations in milliseconds or humanised", () => {
  const DAY = 86_400_000;
  const ttl = (value: string) => parse(`url=x&ttl=${encodeURIComponent(value)}`).ttlMs;
  assert.equal(ttl("1d"), DAY);
  assert.equal(ttl("1day"), DAY);
  assert.equal(ttl("2days"), 2 * DAY);
  assert.equal(ttl("90s"), 90_000);
  assert.equal(ttl("90secs"), 90_000);
  assert.equal(ttl("90seconds"), 90_000);
  assert.equal(ttl("2h"), 7_200_000);
  assert.equal(ttl("1 hour"), 3_600_000);
  assert.equal(ttl("1.5h"), 5_400_000);
  assert.equal(ttl("86400000"), DAY);
  assert.equal(ttl("31d"), 31 * DAY);
  assert.equal(ttl("1w"), 7 * DAY);
  assert.equal(parse("url=x").ttlMs, null, "absent: the cache's default (24 h) applies");
  for (const value of ["59s", "59999", "32d", "0", "abc", "1 fortnight", "-1d", "1d2h"]) {
    assertInvalid(`url=x&ttl=${encodeURIComponent(value)}`, "ttl", "EINVALTTL");
  }
});

Deno.test("parseParams() allows staleTtl from 0 up to ttl", () => {
  assert.equal(parse("url=x&staleTtl=0").staleTtlMs, 0);
  assert.equal(parse("url=x&staleTtl=1h").staleTtlMs, 3_600_000);
  assert.equal(parse("url=x&staleTtl=1d").staleTtlMs, 86_400_000);
  assert.equal(parse("url=x&ttl=2d&staleTtl=2d").staleTtlMs, 2 * 86_400_000);
  assertInvalid("url=x&staleTtl=2d", "staleTtl", "EINVALSTTL");
  assertInvalid("url=x&ttl=1h&staleTtl=2h", "staleTtl", "EINVALSTTL");
  assertInvalid("url=x&stale_ttl=soon", "staleTtl", "EINVALSTTL");
});

Deno.test("parseParams() refuses headers that cannot be forwarded", () => {
  assertInvalid("url=x&headers.host=evil.test", "headers.host");
  assertInvalid("url=x&headers.content-length=1", "headers.content-length");
  assertInvalid("url=x&headers.proxy-authorization=x", "headers.proxy-authorization");
  assertInvalid("url=x&headers.transfer_encoding=chunked", "headers.transfer_encoding");
  // Passed the query check and was then dropped by the fetcher without a word (issue 16).
  assertInvalid("url=x&headers.expect=100-continue", "headers.expect");
  assertInvalid("url=x&headers.cookie=a%0d%0aHost:%20evil", "headers.cookie");
});

Deno.test("parseParams() takes the API key out of headers and never forwards it", () => {
  for (const name of ["apiKey", "api_key", "x-api-key", "X-Api-Key"]) {
    const query = `url=x&headers.${name}=secret&headers.cookie=a=1`;
    const params = parse(query);
    assert.equal(queryApiKey(new URLSearchParams(query)), "secret");
    assert.deepEqual(params.headers, { cookie: "a=1" });
    assert.ok(!JSON.stringify(params.canonical).includes("secret"));
  }
});

Deno.test("parseParams() refuses parameters that would write files", () => {
  assertInvalid("url=x&path=/tmp/x", "path");
  assertInvalid("url=x&screenshot.path=/tmp/x.png", "screenshot.path");
  assertInvalid("url=x&pdf.path=/tmp/x.pdf", "pdf.path");
});

Deno.test("parseParams() reads meta and filter", () => {
  assert.equal(parse("url=x&meta=false").meta, false);
  assert.deepEqual(
    [...(parse("url=x&meta.title=false").meta as Set<string>)].includes("title"),
    false,
  );
  assert.deepEqual([...(parse("url=x&meta.title=true&meta.image=true").meta as Set<string>)], [
    "title",
    "image",
  ]);
  assert.deepEqual(parse("url=x&filter=title,image.url").filter, ["title", "image.url"]);
});

Deno.test("parseParams() ignores unknown parameters and keeps the cache key stable", () => {
  const a = parse("url=x&screenshot.type=png&foo=bar&ttl=1h");
  const b = parse("screenshot.type=png&url=x&force=true");
  assert.deepEqual(a.canonical, b.canonical);
  assert.notDeepEqual(a.canonical, parse("url=x&screenshot.type=jpeg").canonical);
});

Deno.test("parseParams() turns on the feature an embed names, unless it is set to false", () => {
  assert.equal(parse("url=x&embed=markdown").markdown, true);
  assert.equal(parse("url=x&markdown=false&embed=markdown").markdown, false);
  assert.deepEqual(parse("url=x&embed=screenshot.url").screenshot, {});
  assert.deepEqual(
    parse("url=x&embed=screenshot.url&screenshot.type=jpeg").screenshot,
    { type: "jpeg" },
  );
  assert.equal(parse("url=x&screenshot=false&embed=screenshot.url").screenshot, null);
  assert.deepEqual(parse("url=x&embed=pdf.url").pdf, {});
  assert.equal(parse("url=x&embed=title").markdown, false);
  assert.equal(parse("url=x&embed=title").screenshot, null);
  // With or without the explicit switch, it is the same request: one cache entry.
  assert.deepEqual(
    parse("url=x&embed=markdown").canonical,
    parse("url=x&markdown=true&embed=markdown").canonical,
  );
});

Deno.test("ttl=min|max and staleTtl=true|false as Microlink reads them", () => {
  assert.equal(parse("url=x&ttl=min").ttlMs, 60_000);
  assert.equal(parse("url=x&ttl=MAX").ttlMs, 31 * 86_400_000);
  assert.equal(parse("url=x&staleTtl=true").staleTtlMs, 0);
  assert.equal(parse("url=x&staleTtl").staleTtlMs, 0);
  assert.equal(parse("url=x&staleTtl=false").staleTtlMs, null);
  assertInvalid("url=x&ttl=true", "ttl", "EINVALTTL");
  assertInvalid("url=x&staleTtl=maybe", "staleTtl", "EINVALSTTL");
});

Deno.test("cacheKey makes another cache entry of the same request", () => {
  const key = (query: string) => JSON.stringify(parse(`url=x${query}`).canonical);
  assert.equal(key("&cacheKey=a"), key("&cache_key=a"));
  assert.notEqual(key("&cacheKey=a"), key("&cacheKey=b"));
  assert.notEqual(key("&cacheKey=a"), key(""));
  assertInvalid(`url=x&cacheKey=${"k".repeat(257)}`, "cacheKey");
});
