import assert from "node:assert/strict";
import type { ApiError } from "../../lib/util/errors.ts";
import { decode, poolFor, startCanary } from "./_helpers.ts";
import { type Fixture, html, serve, testConfig } from "../_fixtures.ts";

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every way a page can make the browser talk to `canary`, each recording its outcome. */
function ssrfPage(canary: string, self: string): string {
  const https = canary.replace("http://", "https://");
  const ws = canary.replace("http://", "ws://");
  return `<!doctype html><html><head>
<meta http-equiv="refresh" content="1;url=${canary}/meta-main">
<link rel="stylesheet" href="${canary}/style.css">
<link rel="prefetch" href="${canary}/prefetch">
<style>
  @import url("${canary}/import.css");
  body { margin: 0; background: #ffffff; }
  #css { width: 10px; height: 10px; background: url("${canary}/css-bg.png"); }
  #mark { position: absolute; left: 0; top: 0; width: 50px; height: 50px; background: #00ff00; }
</style></head><body>
<div id="mark"></div><div id="css"></div><ul id="log"></ul>
<img src="${canary}/img.png"><img src="${https}/tls.png"><img src="http://localhost:${
    new URL(canary).port
  }/named.png">
<img src="${self}/redirect?to=${encodeURIComponent(canary + "/redirected.png")}">
<iframe src="${canary}/frame"></iframe>
<iframe src="${self}/redirect?to=${encodeURIComponent(canary + "/redirected-frame")}"></iframe>
<iframe srcdoc="<meta http-equiv=refresh content='0;url=${canary}/meta-frame'>"></iframe>
<script>
  const log = (name, outcome) => {
    const li = document.createElement("li");
    li.textContent = name + ":" + outcome;
    document.getElementById("log").append(li);
  };
  const attempt = (name, promise) =>
    promise.then(() => log(name, "reached"), () => log(name, "blocked"));
  attempt("fetch", fetch("${canary}/fetch"));
  attempt("fetch-https", fetch("${https}/fetch"));
  attempt("xhr", new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("GET", "${canary}/xhr");
    xhr.onload = resolve;
    xhr.onerror = reject;
    xhr.send();
  }));
  attempt("websocket", new Promise((resolve, reject) => {
    const socket = new WebSocket("${ws}/ws");
    socket.onopen = resolve;
    socket.onerror = reject;
  }));
  attempt("worker", new Promise((resolve, reject) => {
    const worker = new Worker("${self}/worker.js");
    worker.onmessage = (e) => (e.data === "reached" ? resolve() : reject());
    worker.onerror = reject;
  }));
  attempt("beacon", Promise.resolve(navigator.sendBeacon("${canary}/beacon", "x")).then((ok) => ok ? Promise.reject() : Promise.reject()));
  const popup = window.open("${canary}/popup");
  log("popup", popup ? "opened" : "refused");
</script></body></html>`;
}

const WORKER = (canary: string) =>
  `fetch("${canary}/worker-fetch").then(() => postMessage("reached"), () => postMessage("blocked"));`;

function redirect(request: Request): Response {
  const to = new URL(request.url).searchParams.get("to")!;
  return new Response(null, { status: 302, headers: { location: to } });
}

Deno.test("visit() lets nothing on a page reach a loopback canary outside TRUSTED_TARGETS", async (t) => {
  await using canary = startCanary();
  await using site: Fixture = serve({
    "/": (_, self) => html(ssrfPage(canary.origin, self.origin)),
    "/worker.js": () =>
      new Response(WORKER(canary.origin), { headers: { "content-type": "text/javascript" } }),
    "/redirect": redirect,
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));

  await t.step("the capture of the SSRF page succeeds while every attempt is refused", async () => {
    const result = await pool.visit(`${site.origin}/`, {
      screenshot: true,
      html: true,
      viewport: { width: 800, height: 600 },
      waitForTimeout: 1800, // the main frame's meta refresh fires at 1 s
    });
    assert.equal(result.statusCode, 200);
    assert.equal(result.url, `${site.origin}/`);
    assert.deepEqual(decode(result.screenshot!.bytes).pixel(10, 10), [0, 255, 0, 255]);
    // The attempts really ran (so the zero below means something) and all failed.
    for (const name of ["fetch", "fetch-https", "xhr", "websocket", "worker", "beacon"]) {
      assert.match(result.html!, new RegExp(`<li>${name}:blocked</li>`), name);
    }
    // Chromium's own popup blocker is on (a script opens no window): nothing to reach through.
    assert.match(result.html!, /<li>popup:refused<\/li>/);
    const paths = site.seen.map((s) => s.path);
    assert.ok(paths.includes("/worker.js"), "the worker was started");
    assert.equal(paths.filter((p) => p === "/redirect").length, 2, "both redirects were asked");
    await settle(500);
    assert.equal(canary.connections, 0);
  });

  await t.step("navigating to the canary itself is EFORBIDDENURL", async () => {
    for (const url of [`${canary.origin}/`, `http://localhost:${canary.port}/`]) {
      await assert.rejects(
        pool.visit(url, { screenshot: true }),
        (error: ApiError) =>
          error.code === "EFORBIDDENURL" && error.message.includes(`${canary.port}`),
      );
    }
    await assert.rejects(
      pool.visit(`https://127.0.0.1:${canary.port}/`, { screenshot: true }),
      (error: ApiError) => error.code === "EFORBIDDENURL",
    );
    await assert.rejects(
      pool.visit(`${site.origin}/redirect?to=${encodeURIComponent(canary.origin + "/")}`, {
        screenshot: true,
      }),
      (error: ApiError) => error.code === "EFORBIDDENURL",
    );
    assert.equal(canary.connections, 0);
  });
});

Deno.test("visit() sends the caller's headers only to the target's origin", async () => {
  await using other = serve({
    "/pixel.png": () => new Response("x", { headers: { "content-type": "image/png" } }),
    "/frame": () => html("<p>other</p>"),
    "/api": () => new Response("{}", { headers: { "access-control-allow-origin": "*" } }),
  });
  await using target = serve({
    "/": () =>
      html(`<!doctype html><img src="/same.png"><img src="${other.origin}/pixel.png">
        <iframe src="${other.origin}/frame"></iframe>
        <img src="/redirect?to=${encodeURIComponent(other.origin + "/pixel.png?via=redirect")}">
        <script>fetch("/api"); fetch("${other.origin}/api");</script>`),
    "/same.png": () => new Response("x", { headers: { "content-type": "image/png" } }),
    "/api": () => new Response("{}"),
    "/redirect": redirect,
  });
  await using pool = poolFor(testConfig({ trustPorts: [target.port, other.port] }));
  await pool.visit(`${target.origin}/`, {
    headers: { "X-Secret": "s3cret", Authorization: "Bearer t0ken", "User-Agent": "peek-test/1" },
    waitUntil: "networkidle0",
  });
  const targetPaths = target.seen.map((s) => s.path).filter((p) => p !== "/favicon.ico").sort();
  assert.deepEqual(targetPaths, ["/", "/api", "/redirect", "/same.png"]);
  for (const seen of target.seen) {
    assert.equal(seen.headers["x-secret"], "s3cret", seen.path);
    assert.equal(seen.headers["authorization"], "Bearer t0ken", seen.path);
  }
  const otherPaths = other.seen.map((s) => s.path).sort();
  assert.deepEqual(otherPaths, ["/api", "/frame", "/pixel.png", "/pixel.png"]);
  for (const seen of other.seen) {
    assert.equal(seen.headers["x-secret"], undefined, seen.path);
    assert.equal(seen.headers["authorization"], undefined, seen.path);
    // User-Agent is not a credential: it is the page's, everywhere.
    assert.equal(seen.headers["user-agent"], "peek-test/1", seen.path);
  }
});
