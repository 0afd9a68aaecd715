import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { ApiError } from "../../lib/util/errors.ts";
import { serve, tableResolver, testConfig } from "../_fixtures.ts";

/** A server answering 503 to its first `failures` requests, then 200. */
function flaky(failures: number) {
  let left = failures;
  return serve(() =>
    left-- > 0 ? new Response("busy", { status: 503 }) : new Response("fine", { status: 200 })
  );
}

/** A TCP server that drops its first `failures` connections unanswered, then speaks HTTP. */
function dropping(failures: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const state = { port, connections: 0 };
  const loop = (async () => {
    for await (const conn of listener) {
      if (++state.connections <= failures) {
        conn.close();
        continue;
      }
      await conn.read(new Uint8Array(4096)).catch(() => null);
      await conn.write(new TextEncoder().encode(
        "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
      )).catch(() => {});
      conn.close();
    }
  })();
  return {
    ...state,
    get connections() {
      return state.connections;
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop.catch(() => {});
    },
  };
}

const fetcherFor = (port: number, resolver = tableResolver({})) =>
  new GuardedFetcher({
    config: testConfig({ trustPorts: [port] }),
    network: { resolver },
  });

Deno.test("retries: a 5xx is asked again with backoff, the last answer stands", async (t) => {
  await t.step("two 503s, two retries: the third answer is the 200", async () => {
    await using site = flaky(2);
    const result = await fetcherFor(site.port).fetch(`${site.origin}/`, { retries: 2 });
    assert.equal(result.statusCode, 200);
    assert.equal(site.hits, 3);
  });
  await t.step("two 503s, one retry: the 503 is the answer", async () => {
    await using site = flaky(2);
    const result = await fetcherFor(site.port).fetch(`${site.origin}/`, { retries: 1 });
    assert.equal(result.statusCode, 503);
    assert.equal(site.hits, 2);
  });
  await t.step("no retries: one request", async () => {
    await using site = flaky(1);
    const result = await fetcherFor(site.port).fetch(`${site.origin}/`);
    assert.equal(result.statusCode, 503);
    assert.equal(site.hits, 1);
  });
  await t.step("a short deadline ends retrying with the last answer, not ETIMEOUT", async () => {
    await using site = flaky(100);
    const result = await fetcherFor(site.port).fetch(`${site.origin}/`, {
      retries: 3,
      timeoutMs: 700,
    });
    assert.equal(result.statusCode, 503);
    assert.ok(site.hits < 4, `${site.hits} attempts in 700 ms`);
  });
});

Deno.test("retries: dropped connections are retried, DNS failures are not", async (t) => {
  await t.step("two dropped connections, two retries: the third connection answers", async () => {
    await using site = dropping(2);
    const result = await fetcherFor(site.port).fetch(`http://127.0.0.1:${site.port}/`, {
      retries: 2,
    });
    assert.equal(result.statusCode, 200);
    assert.equal(site.connections, 3);
  });
  await t.step("three dropped connections, two retries: EFETCH", async () => {
    await using site = dropping(3);
    await assert.rejects(
      fetcherFor(site.port).fetch(`http://127.0.0.1:${site.port}/`, { retries: 2 }),
      (error) => error instanceof ApiError && error.code === "EFETCH",
    );
    assert.equal(site.connections, 3);
  });
  await t.step("an unknown name is asked for once", async () => {
    const resolver = tableResolver({});
    await assert.rejects(
      fetcherFor(1, resolver).fetch("http://nowhere.invalid/", { retries: 3 }),
      (error) => error instanceof ApiError && error.code === "EFETCH",
    );
    assert.equal(resolver.calls["nowhere.invalid"], 1);
  });
});
