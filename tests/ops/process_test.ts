import assert from "node:assert/strict";
import { html, serve } from "../_fixtures.ts";
import { startMain } from "./_main_process.ts";
import { descendants } from "../_processes.ts";

const SECRETS = {
  cookie: "cookie-secret-4f1c",
  header: "header-secret-9a2b",
  password: "userinfo-secret-7d3e",
  apiKey: "lp_apikey-secret-0c8d",
  authorization: "auth-secret-5e6f",
};

function requestLines(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.msg === "request");
}

Deno.test("main.ts logs one JSON line per API request with its id and no secrets", async () => {
  await using site = serve({ "/page": () => html("<title>Logged page</title>") });
  await using main = await startMain({ TRUSTED_TARGETS: `127.0.0.1:${site.port}` });
  const target = `${site.origin}/page`;
  const withUserinfo = target.replace("http://", `http://user:${SECRETS.password}@`);
  const calls: [string, Record<string, string>][] = [
    [
      `/?url=${encodeURIComponent(target)}&ping=false&headers.cookie=${SECRETS.cookie}` +
      `&headers.x-custom=${SECRETS.header}`,
      { authorization: `Bearer ${SECRETS.authorization}` },
    ],
    [`/?url=${encodeURIComponent(withUserinfo)}&ping=false`, {}],
    [`/?url=${encodeURIComponent(target)}`, { "x-api-key": SECRETS.apiKey }],
    ["/?url=not-a-url", {}],
  ];
  const ids: string[] = [];
  const statuses: number[] = [];
  for (const [path, headers] of calls) {
    const response = await fetch(`${main.origin}${path}`, { headers });
    await response.body?.cancel();
    ids.push(response.headers.get("x-request-id")!);
    statuses.push(response.status);
  }
  assert.deepEqual(statuses, [200, 200, 400, 400]);
  await (await fetch(`${main.origin}/health`)).body?.cancel();
  await new Promise((r) => setTimeout(r, 200)); // let the last line reach the pipe

  for (const line of main.lines) {
    assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
  }
  const logged = requestLines(main.lines);
  assert.deepEqual(logged.map((l) => l.requestId), ids, "one line per API request, in order");
  assert.deepEqual(logged.map((l) => l.status), statuses);
  assert.deepEqual(logged.map((l) => l.code), [undefined, undefined, "EPRO", "EINVALURL"]);
  // The level follows the outcome: info for 2xx/3xx, warn for 4xx, error for 5xx.
  assert.deepEqual(logged.map((l) => l.level), ["info", "info", "warn", "warn"]);
  for (const entry of logged) {
    assert.ok(!Number.isNaN(Date.parse(entry.time as string)), "time is ISO 8601");
    assert.equal(typeof entry.ms, "number");
  }
  const everything = main.lines.join("\n") + main.stderr();
  for (const [name, secret] of Object.entries(SECRETS)) {
    assert.ok(!everything.includes(secret), `the ${name} appears in the log`);
  }
});

async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat); // a zombie is gone for our purpose
  } catch {
    return false;
  }
}

Deno.test("main.ts on SIGTERM finishes the in-flight request, closes Chromium, exits 0", async () => {
  let release: () => void = () => {};
  const slowStarted = Promise.withResolvers<void>();
  await using site = serve({
    "/page": () => html("<title>Quick page</title>"),
    "/slow": async () => {
      slowStarted.resolve();
      await new Promise<void>((resolve) => {
        release = resolve;
        setTimeout(resolve, 1500);
      });
      return html("<title>Slow but complete</title>");
    },
  });
  await using main = await startMain({ TRUSTED_TARGETS: `127.0.0.1:${site.port}` });

  // A screenshot first, so that Chromium is running when the signal arrives.
  const shot = await fetch(
    `${main.origin}/?url=${encodeURIComponent(`${site.origin}/page`)}&screenshot=true&ping=false`,
  );
  assert.equal(shot.status, 200, await shot.clone().text());
  assert.ok((await shot.json()).data.screenshot.url);
  const browsers = await descendants(main.child.pid);
  assert.ok(browsers.length > 0, "Chromium runs under main.ts");

  const inFlight = fetch(
    `${main.origin}/?url=${encodeURIComponent(`${site.origin}/slow`)}&ping=false`,
  );
  await slowStarted.promise;
  main.child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 300));
  await assert.rejects(
    fetch(`${main.origin}/health`),
    "new connections are refused once shutting down",
  );
  release();

  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.equal((await response.json()).data.title, "Slow but complete");
  const status = await main.exited;
  assert.equal(status.code, 0, main.stderr());
  assert.ok(main.lines.some((l) => l.includes('"msg":"shutting down"')));
  for (let i = 0; i < 50 && (await Promise.all(browsers.map(alive))).some(Boolean); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const left = [];
  for (const pid of browsers) if (await alive(pid)) left.push(pid);
  assert.deepEqual(left, [], "Chromium processes outlived main.ts");
});
