import assert from "node:assert/strict";
import { html, serve } from "../_fixtures.ts";
import { startRedis } from "../store/_redis.ts";
import { type MainProcess, startMain } from "./_main_process.ts";

type Line = Record<string, unknown>;

const parse = (lines: string[]): Line[] => lines.map((line) => JSON.parse(line) as Line);

/** Waits until `count` request lines have reached main's stdout (they are written in batches). */
async function requestLines(main: MainProcess, count: number): Promise<Line[]> {
  for (let i = 0; i < 200; i++) {
    const found = parse(main.lines).filter((l) => l.msg === "request");
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`fewer than ${count} request lines:\n${main.lines.join("\n")}`);
}

async function call(main: MainProcess, path: string, init: RequestInit = {}) {
  const response = await fetch(`${main.origin}${path}`, init);
  const body = await response.text();
  return { status: response.status, headers: response.headers, body };
}

Deno.test("every answer gets one line at the level of its outcome, naming its route", async () => {
  await using site = serve({ "/page": () => html("<title>Logged</title>") });
  await using canary = serve();
  await using main = await startMain({
    TRUSTED_TARGETS: `127.0.0.1:${site.port}`,
    LOG_LEVEL: "debug",
  });
  const api = (target: string) => `/?url=${encodeURIComponent(target)}&ping=false`;
  const calls: [string, RequestInit, Line][] = [
    [api(`${site.origin}/page`), {}, { route: "api", status: 200, level: "info" }],
    // The canary's port is not trusted: the guard refuses it before any connection.
    [api(`${canary.origin}/`), {}, {
      route: "api",
      status: 400,
      level: "warn",
      code: "EFORBIDDENURL",
    }],
    ["/health", {}, { route: "health", status: 200, level: "debug" }],
    ["/no-such-page", {}, { route: "none", status: 404, level: "warn", code: "ENOROUTE" }],
    ["/assets/AAAAAAAAAAAAAAAAAAAAAA.png", {}, {
      route: "assets",
      status: 404,
      level: "warn",
      code: "ENOROUTE",
    }],
    ["/", { method: "POST" }, { route: "none", status: 405, level: "warn", code: "EMETHOD" }],
    ["/openapi.json", {}, { route: "openapi", status: 200, level: "info" }],
    ["/", { headers: { accept: "text/html" } }, {
      route: "playground",
      status: 200,
      level: "info",
    }],
  ];
  const ids: string[] = [];
  for (const [path, init, expected] of calls) {
    const { status, headers } = await call(main, path, init);
    assert.equal(status, expected.status, path);
    ids.push(headers.get("x-request-id") ?? "");
  }
  const lines = await requestLines(main, calls.length);
  assert.equal(lines.length, calls.length, "one line per answer");
  calls.forEach(([path, init, expected], i) => {
    const line = lines[i]!;
    for (const [name, value] of Object.entries(expected)) {
      assert.equal(line[name], value, `${init.method ?? "GET"} ${path}: ${name}`);
    }
    assert.equal(line.method, init.method ?? "GET");
    assert.match(String(line.requestId), /^[0-9a-f-]{36}$/, `${path}: a request id`);
    assert.equal(typeof line.ms, "number");
    // Never a path: asset paths are capabilities.
    assert.ok(!JSON.stringify(line).includes("AAAAAAAAAAAAAAAAAAAAAA"), "no asset id logged");
  });
  // Answers that carry an id (the API's, every error) name the id of their log line.
  calls.forEach(([path], i) => {
    if (ids[i]) assert.equal(ids[i], lines[i]!.requestId, path);
  });
  assert.ok(ids[1] && ids[3] && ids[4] && ids[5], "error answers carry x-request-id");

  const refused = parse(main.lines).filter((l) => l.msg === "guard refused target");
  assert.equal(refused.length, 1);
  assert.equal(refused[0]!.requestId, ids[1], "the guard's line carries its request's id");
  assert.deepEqual(canary.paths, []);
});

Deno.test("LOG_LEVEL decides which lines are written; a bad value stops the start", async () => {
  await using main = await startMain({ LOG_LEVEL: "info" });
  await call(main, "/health");
  await call(main, "/no-such-page");
  const lines = await requestLines(main, 1);
  assert.deepEqual(lines.map((l) => l.route), ["none"], "probes log at debug: not at info");

  await assert.rejects(
    () => startMain({ LOG_LEVEL: "loud" }),
    // One JSON line (see the start-up error test): the value's quotes come escaped.
    /"cannot start".*LOG_LEVEL must be one of debug, info, warn, error, silent, got \\"loud\\"/,
  );
});

Deno.test("/assets answers 503 EUNAVAILABLE with Retry-After while Redis is down", async () => {
  await using redis = await startRedis();
  await using main = await startMain({ REDIS_URL: redis.url });
  const path = "/assets/BBBBBBBBBBBBBBBBBBBBBB.png";
  assert.equal((await call(main, path)).status, 404, "Redis up: no such asset");

  await redis.stop();
  const down = await call(main, path);
  assert.equal(down.status, 503);
  assert.equal(down.headers.get("retry-after"), "5");
  const body = JSON.parse(down.body);
  assert.equal(body.code, "EUNAVAILABLE");
  assert.equal(body.status, "error");

  await redis.start();
  let back = 0;
  for (let i = 0; i < 200 && back !== 404; i++) {
    back = (await call(main, path)).status;
    if (back !== 404) await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(back, 404, "recovers by itself when Redis returns");

  const lines = await requestLines(main, 3);
  const outage = lines.find((l) => l.status === 503)!;
  assert.equal(outage.route, "assets");
  assert.equal(outage.level, "error");
  assert.equal(outage.code, "EUNAVAILABLE");
  assert.equal(outage.requestId, down.headers.get("x-request-id"));
});

Deno.test("an unexpected error is EFATAL, logged once with its request id and cause", async () => {
  await using redis = await startRedis();
  await using main = await startMain({ REDIS_URL: redis.url });
  const id = "CCCCCCCCCCCCCCCCCCCCCC";
  // The command that reads assets denied by an ACL: Redis answers NOPERM, a reply error that is
  // no outage nor a damaged record, so the store lets it through as it is.
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: redis.port });
  await conn.write(new TextEncoder().encode(`ACL SETUSER default -hmget\r\n`));
  await conn.read(new Uint8Array(64));
  conn.close();

  const secret = "bearer-secret-31d9";
  const fatal = await call(main, `/assets/${id}.png`, {
    headers: { authorization: `Bearer ${secret}`, cookie: `session=${secret}` },
  });
  assert.equal(fatal.status, 500);
  const body = JSON.parse(fatal.body);
  assert.equal(body.code, "EFATAL");
  assert.equal(body.message, "An unexpected error happened; it has been logged.");
  assert.ok(!/NOPERM|ReplyError|\bat /.test(fatal.body), "no cause or stack in the answer");
  const requestId = fatal.headers.get("x-request-id");
  assert.ok(requestId);

  await requestLines(main, 1);
  const errors = main.stderr().split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line);
  const unexpected = errors.filter((l) => l.msg === "unexpected error");
  assert.equal(unexpected.length, 1, "logged once");
  assert.equal(unexpected[0]!.requestId, requestId);
  assert.match(String(unexpected[0]!.error), /^ReplyError: NOPERM/);
  assert.ok(!String(unexpected[0]!.error).includes("\n    at "), "no stack");
  const everything = main.lines.join("\n") + main.stderr();
  assert.ok(!everything.includes(secret), "no secret in any line");
});
