import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import type { ApiError } from "../../lib/util/errors.ts";
import { serve, testConfig } from "../_fixtures.ts";

function redirector() {
  return serve((req) => {
    const url = new URL(req.url);
    const n = /^\/n\/(\d+)$/.exec(url.pathname);
    if (n) {
      const left = Number(n[1]);
      if (left === 0) return new Response("arrived");
      const status = [301, 302, 303, 307, 308][left % 5]!;
      return new Response(null, { status, headers: { location: `/n/${left - 1}` } });
    }
    if (url.pathname === "/loop") return redirect("/loop2");
    if (url.pathname === "/loop2") return redirect(`${url.origin}/loop`);
    if (url.pathname === "/no-location") return new Response("moved?", { status: 302 });
    if (url.pathname === "/abs") return redirect(url.searchParams.get("to")!);
    return new Response("not found", { status: 404 });
  });
}

function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } });
}

Deno.test("fetch() follows redirects up to the limit", async (t) => {
  await using site = redirector();
  const config = testConfig({ trustPorts: [site.port] });
  const fetcher = new GuardedFetcher({ config });

  await t.step("10 hops pass and are listed in order", async () => {
    const result = await fetcher.fetch(`${site.origin}/n/10`);
    assert.equal(new TextDecoder().decode(result.body), "arrived");
    assert.equal(result.url, `${site.origin}/n/0`);
    assert.equal(result.statusCode, 200);
    assert.equal(result.redirects.length, 10);
    assert.deepEqual(result.redirects.slice(0, 3), [
      { statusCode: 301, url: `${site.origin}/n/10` },
      { statusCode: 308, url: `${site.origin}/n/9` },
      { statusCode: 307, url: `${site.origin}/n/8` },
    ]);
    assert.deepEqual(result.redirects.at(-1), { statusCode: 302, url: `${site.origin}/n/1` });
  });
  await t.step("the 11th hop is EMAXREDIRECTS", async () => {
    const before = site.hits;
    await assert.rejects(fetcher.fetch(`${site.origin}/n/11`), (e: ApiError) => {
      assert.equal(e.code, "EMAXREDIRECTS");
      assert.match(e.message, /n\/11/);
      return true;
    });
    // 11 requests answered 3xx; the 12th was never sent.
    assert.equal(site.hits - before, 11);
  });
  await t.step("maxRedirects lowers the limit", async () => {
    await assert.rejects(
      fetcher.fetch(`${site.origin}/n/3`, { maxRedirects: 2 }),
      (e: ApiError) => e.code === "EMAXREDIRECTS",
    );
    const zero = await fetcher.fetch(`${site.origin}/n/0`, { maxRedirects: 0 });
    assert.equal(zero.statusCode, 200);
  });
  await t.step("a loop is EMAXREDIRECTS at once", async () => {
    const before = site.hits;
    await assert.rejects(
      fetcher.fetch(`${site.origin}/loop`),
      (e: ApiError) => e.code === "EMAXREDIRECTS",
    );
    assert.equal(site.hits - before, 2);
  });
  await t.step("3xx without Location is the final answer", async () => {
    const result = await fetcher.fetch(`${site.origin}/no-location`);
    assert.equal(result.statusCode, 302);
    assert.equal(new TextDecoder().decode(result.body), "moved?");
    assert.deepEqual(result.redirects, []);
  });
  await t.step("a 404 after a redirect is an answer, not an error", async () => {
    const result = await fetcher.fetch(`${site.origin}/abs?to=/missing`);
    assert.equal(result.statusCode, 404);
    assert.equal(result.url, `${site.origin}/missing`);
  });
});

Deno.test("fetch() drops origin headers from the first cross-origin hop on", async () => {
  const origins = { a: "", b: "" };
  // a/start -> a/same -> b/away -> a/home
  await using a = serve((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/start") return redirect("/same");
    if (path === "/same") return redirect(`${origins.b}/away`);
    return new Response("home");
  });
  await using b = serve(() => redirect(`${origins.a}/home`));
  origins.a = a.origin;
  origins.b = b.origin;
  const config = testConfig({
    trustPorts: [a.port, b.port],
  });
  const result = await new GuardedFetcher({ config }).fetch(
    `http://user:p%40ss@127.0.0.1:${a.port}/start`,
    { headers: { "x-everywhere": "1" }, originHeaders: { "x-secret": "s3cret" } },
  );
  assert.equal(new TextDecoder().decode(result.body), "home");
  assert.deepEqual(result.redirects.map((r) => r.url), [
    `${a.origin}/start`,
    `${a.origin}/same`,
    `${b.origin}/away`,
  ]);
  assert.deepEqual(a.seen.map((s) => s.path), ["/start", "/same", "/home"]);
  const basic = `Basic ${btoa("user:p@ss")}`;
  for (const seen of a.seen.slice(0, 2)) {
    assert.equal(seen.headers["x-secret"], "s3cret");
    assert.equal(seen.headers["authorization"], basic);
  }
  const cross = [b.seen[0]!, a.seen[2]!];
  for (const seen of cross) {
    assert.equal(seen.headers["x-secret"], undefined);
    assert.equal(seen.headers["authorization"], undefined);
  }
  for (const seen of [...a.seen, ...b.seen]) {
    assert.equal(seen.headers["x-everywhere"], "1");
    assert.equal(seen.headers["user-agent"], config.userAgent);
    assert.equal(seen.headers["accept-encoding"], "gzip, deflate, br");
  }
});

Deno.test("fetch() rejects header values that would split the request", async () => {
  await using site = serve(() => new Response("x"));
  const config = testConfig({ trustPorts: [site.port] });
  await assert.rejects(
    new GuardedFetcher({ config }).fetch(`${site.origin}/`, { headers: { "x-a": "1\r\nx-b: 2" } }),
    (e: ApiError) => e.code === "EINVALQUERY" && e.message.includes("x-a"),
  );
  assert.equal(site.hits, 0);
});
