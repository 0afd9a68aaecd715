import assert from "node:assert/strict";
import { startCompat, TITLE } from "./_target.ts";

const ENTRY = new URL("./_microlink_cli.ts", import.meta.url);

/** `microlink <args>` as a subprocess; no update check, no colours, nothing beyond loopback. */
async function microlink(args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", ENTRY.pathname, ...args],
    env: { NO_COLOR: "1", FORCE_COLOR: "0", NO_UPDATE_NOTIFIER: "1", CI: "true" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  // The spinner writes cursor escapes even without colours.
  // deno-lint-ignore no-control-regex
  const clean = (bytes: Uint8Array) => text.decode(bytes).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
  return { code, stdout: clean(stdout), stderr: clean(stderr) };
}

Deno.test("@microlink/cli works against linkpeek through --endpoint", async (t) => {
  await using compat = await startCompat();
  const endpoint = `--endpoint=${compat.app.origin}/`;

  await t.step("default pretty mode: payload, cache, mode, timing and request id", async () => {
    const first = await microlink([compat.pageUrl, endpoint]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, new RegExp(`title: "${TITLE}"`));
    assert.match(first.stdout, /status: "success"/);
    assert.match(first.stderr, /SUCCESS\s+[\d.]+ k?B in/);
    assert.match(first.stderr, /cache MISS/);
    assert.match(first.stderr, /mode fetch \(\d+ms\)/);
    assert.match(first.stderr, /timing fetch;dur=/);
    assert.match(first.stderr, /id [0-9a-f-]{36}/);

    // A hit: the CLI shows when it expires from x-timestamp + x-cache-ttl (24 h by default).
    const second = await microlink([compat.pageUrl, endpoint]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /cache HIT \(23h 59m/);
  });

  await t.step("--no-pretty prints the API's JSON as is", async () => {
    const result = await microlink([compat.pageUrl, endpoint, "--no-pretty"]);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout);
    assert.equal(body.status, "success");
    assert.equal(body.data.title, TITLE);
  });

  await t.step("query parameters in the input reach linkpeek", async () => {
    const result = await microlink([
      `${compat.pageUrl}&data.price.selector=.price&data.price.type=number&meta=false`,
      endpoint,
      "--no-pretty",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).data.price, 42.5);
  });

  await t.step("an error in pretty mode shows linkpeek's code and exits 1", async () => {
    const result = await microlink([`${compat.pageUrl}&screenshot.type=gif`, endpoint]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /FAIL/);
    assert.match(result.stdout, /code EINVALQUERY \(400\)/);
    assert.match(result.stdout, /screenshot\.type/);
    assert.match(result.stdout, /id [0-9a-f-]{36}/);
  });

  await t.step("--apiKey reaches the pro endpoint", async () => {
    const pro = await microlink([
      compat.pageUrl,
      `--endpoint=${compat.app.proOrigin}/`,
      `--apiKey=${compat.apiKey}`,
      "--no-pretty",
    ]);
    assert.equal(pro.code, 0, pro.stderr);
    assert.equal(JSON.parse(pro.stdout).data.title, TITLE);
    const onFree = await microlink([compat.pageUrl, endpoint, `--apiKey=${compat.apiKey}`]);
    assert.equal(onFree.code, 1);
    assert.match(onFree.stdout, /code EPRO \(400\)/);
  });
});
