/**
 * /mcp over Streamable HTTP, driven by the SDK's own client against the real service on
 * loopback: the tool list, every tool on a loopback article (Chromium for the screenshot, the
 * PDF and the function), errors as tool results, keys and the free limit, Origin checks.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";
import type { Client } from "@modelcontextprotocol/sdk/client";
import { createKey } from "../../lib/plans/mod.ts";
import { TOOLS } from "../../lib/mcp/tools.ts";
import { httpClient, site, startService } from "./_service.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

/** A tool's result, as the client returns it (content, structuredContent, isError, _meta). */
async function call(client: Client, name: string, args: Json): Promise<Json> {
  return await client.callTool({ name, arguments: args }) as Json;
}

function text(result: Json): string {
  const item = result.content.find((c: Json) => c.type === "text");
  assert.ok(item, `a text content in ${JSON.stringify(result).slice(0, 300)}`);
  return item.text;
}

const EXPECTED_TOOLS = [
  "linkpeek_metadata",
  "linkpeek_markdown",
  "linkpeek_text",
  "linkpeek_html",
  "linkpeek_screenshot",
  "linkpeek_pdf",
  "linkpeek_palette",
  "linkpeek_insights",
  "linkpeek_links",
  "linkpeek_images",
  "linkpeek_emails",
  "linkpeek_oembed",
  "linkpeek_function",
];

Deno.test("tools/list: every tool with url required, typed arguments, an output schema and hints", async () => {
  await using service = await startService();
  await using client = await httpClient(service.origin);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), EXPECTED_TOOLS);
  for (const tool of tools) {
    assert.deepEqual(tool.inputSchema.required?.[0], "url", tool.name);
    assert.equal((tool.inputSchema.properties?.url as Json).type, "string");
    assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
    assert.ok(tool.description && tool.description.length > 40, tool.name);
    assert.deepEqual(tool.outputSchema?.required, ["data", "statusCode", "url", "cache"]);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.openWorldHint, true);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      assert.ok((schema as Json).description, `${tool.name}.${name} is described`);
    }
  }
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const screenshot = byName.get("linkpeek_screenshot")!.inputSchema.properties as Json;
  assert.deepEqual(screenshot.type.enum, ["png", "jpeg"]);
  assert.equal(screenshot.viewport.properties.width.maximum, 3840);
  assert.deepEqual(byName.get("linkpeek_function")!.inputSchema.required, ["url", "function"]);
});

Deno.test("each tool on a loopback article, through the API's pipeline", async (t) => {
  await using target = site();
  await using service = await startService({ trustPorts: [target.port] });
  await using client = await httpClient(service.origin);
  const url = `${target.origin}/article`;

  await t.step("metadata: the default fields and a custom rule", async () => {
    const result = await call(client, "linkpeek_metadata", {
      url,
      data: {
        heading: { selector: "h1" },
        paragraphs: { selectorAll: "article p", type: "string" },
      },
      ping: false,
    });
    const { data, statusCode, url: finalUrl, cache } = result.structuredContent;
    assert.equal(data.title, "Calm interfaces");
    assert.equal(data.description, "Why calm software wins.");
    assert.equal(data.image.url, `${target.origin}/hero.png`);
    assert.equal(data.heading, "Calm interfaces");
    assert.equal(data.paragraphs.length, 3);
    assert.equal(statusCode, 200);
    assert.equal(finalUrl, url);
    assert.equal(cache, "MISS");
    assert.equal(JSON.parse(text(result)).title, "Calm interfaces");
    // The same query again: the API's response cache answers.
    const again = await call(client, "linkpeek_metadata", {
      url,
      data: {
        heading: { selector: "h1" },
        paragraphs: { selectorAll: "article p", type: "string" },
      },
      ping: false,
    });
    assert.equal(again.structuredContent.cache, "HIT");
  });

  await t.step("markdown of the main content, and of the whole page", async () => {
    const main = text(await call(client, "linkpeek_markdown", { url }));
    assert.match(main, /^# Calm interfaces/);
    assert.match(main, /\[more\]\(http:\/\/127\.0\.0\.1:\d+\/more\)/);
    assert.doesNotMatch(main, /Footer words/);
    const page = text(await call(client, "linkpeek_markdown", { url, scope: "page" }));
    assert.match(page, /\[Home\]\(/);
    assert.match(page, /Footer words nobody reads\./);
  });

  await t.step("text of the main content (text=true)", async () => {
    const main = await call(client, "linkpeek_text", { url });
    assert.match(text(main), /Calm interfaces ask for attention/);
    assert.doesNotMatch(text(main), /Footer words|<p>|\]\(/);
    assert.equal(main.structuredContent.data.text, text(main));
  });

  await t.step("text of the whole page", async () => {
    const page = await call(client, "linkpeek_text", { url, scope: "page" });
    assert.match(text(page), /Calm interfaces ask for attention/);
    assert.match(text(page), /Footer words nobody reads\./);
    assert.doesNotMatch(text(page), /<p>|\]\(/);
    assert.equal(page.structuredContent.data.text, text(page));
  });

  await t.step("html, whole and one element", async () => {
    const whole = text(await call(client, "linkpeek_html", { url }));
    assert.match(whole, /<footer>Footer words nobody reads\.<\/footer>/);
    const heading = text(await call(client, "linkpeek_html", { url, selector: "h1" }));
    assert.equal(heading, "<h1>Calm interfaces</h1>");
  });

  await t.step("links, images and e-mails", async () => {
    const links = await call(client, "linkpeek_links", { url });
    assert.deepEqual(links.structuredContent.data.links, [
      `${target.origin}/home`,
      `${target.origin}/about`,
      `${target.origin}/more`,
    ]);
    const images = await call(client, "linkpeek_images", { url });
    assert.deepEqual(JSON.parse(text(images)), [`${target.origin}/hero.png`]);
    const emails = await call(client, "linkpeek_emails", { url });
    assert.deepEqual(JSON.parse(text(emails)), ["editor@site.example"]);
  });

  await t.step("palette and insights (technologies)", async () => {
    const palette = await call(client, "linkpeek_palette", { url });
    const image = palette.structuredContent.data.image;
    assert.ok(Array.isArray(image.palette), "image.palette");
    assert.match(image.background_color, /^#[0-9A-F]{6}$/i);
    const insights = await call(client, "linkpeek_insights", { url });
    const technologies = insights.structuredContent.data.insights.technologies;
    assert.ok(
      technologies.some((t: Json) => t.name === "Open Graph"),
      JSON.stringify(technologies),
    );
    assert.equal(insights.structuredContent.data.insights.lighthouse, undefined);
  });

  await t.step("oEmbed", async () => {
    const result = await call(client, "linkpeek_oembed", { url, maxWidth: 400 });
    const answer = result.structuredContent.data;
    assert.equal(answer.version, "1.0");
    assert.equal(answer.type, "rich");
    assert.equal(answer.title, "Calm interfaces");
    assert.ok(answer.width <= 400);
    const link = await call(client, "linkpeek_oembed", { url, link: true });
    assert.equal(link.structuredContent.data.type, "link");
  });

  await t.step("screenshot: an image content and the hosted URL", async () => {
    const result = await call(client, "linkpeek_screenshot", {
      url,
      viewport: { width: 640, height: 400 },
    });
    const image = result.content.find((c: Json) => c.type === "image");
    assert.ok(image, "an image content");
    assert.equal(image.mimeType, "image/png");
    const png = PNG.sync.read(Buffer.from(image.data, "base64"));
    assert.equal(png.width, 640 * 2, "the width given, at the default device's 2x");
    const link = result.content.find((c: Json) => c.type === "resource_link");
    const shot = result.structuredContent.data.screenshot;
    assert.equal(link.uri, shot.url);
    assert.match(shot.url, /^http:\/\/linkpeek\.test\/assets\/[\w-]+\.png$/);
    // The hosted URL serves the same bytes (asked by path: its host is the public name).
    const hosted = await fetch(new URL(new URL(shot.url).pathname, service.origin));
    assert.equal((await hosted.bytes()).toBase64(), image.data);
  });

  await t.step("pdf: the hosted URL, no image", async () => {
    const result = await call(client, "linkpeek_pdf", { url, format: "A5", landscape: true });
    assert.equal(result.content.some((c: Json) => c.type === "image"), false);
    const link = result.content.find((c: Json) => c.type === "resource_link");
    assert.equal(link.mimeType, "application/pdf");
    const hosted = await fetch(new URL(new URL(link.uri).pathname, service.origin));
    assert.equal(new TextDecoder().decode((await hosted.bytes()).subarray(0, 5)), "%PDF-");
  });

  await t.step("function: its value", async () => {
    const result = await call(client, "linkpeek_function", {
      url,
      function: "({ page }) => page.evaluate(() => document.querySelectorAll('p').length)",
    });
    const { isFulfilled, isRejected, value, profiling } = result.structuredContent.data.function;
    assert.deepEqual({ isFulfilled, isRejected, value }, {
      isFulfilled: true,
      isRejected: false,
      value: 3,
    });
    assert.equal(typeof profiling.phases.run, "number");
  });
});

Deno.test("errors are tool results with the API's code; bad arguments never crash", async () => {
  await using target = site();
  await using untrusted = site();
  await using service = await startService({ trustPorts: [target.port] });
  await using client = await httpClient(service.origin);
  const url = `${target.origin}/article`;

  // The guard refuses a loopback address that TRUSTED_TARGETS does not name.
  const forbidden = await call(client, "linkpeek_metadata", { url: `${untrusted.origin}/article` });
  assert.equal(forbidden.isError, true);
  assert.equal(forbidden._meta.code, "EFORBIDDENURL");
  assert.match(text(forbidden), /^EFORBIDDENURL: .*forbidden address/);
  assert.equal(untrusted.hits, 0);

  const invalid = await call(client, "linkpeek_markdown", { url: "not a url" });
  assert.equal(invalid._meta.code, "EINVALURL");

  const cases: [Json, RegExp][] = [
    [{}, /the argument `url` is required/],
    [{ url, bogus: 1 }, /unknown argument `bogus`/],
    [{ url, viewport: { width: "wide" } }, /`viewport\.width` must be integer/],
    [{ url, viewport: { width: 5 } }, /`viewport\.width` must be >= 100/],
    [{ url, viewport: { depth: 5 } }, /unknown argument `viewport\.depth`/],
  ];
  for (const [args, message] of cases) {
    const result = await call(client, "linkpeek_metadata", args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.equal(result._meta.code, "EINVALQUERY");
    assert.match(text(result), message);
  }
  // A value only the API's parser checks (a duration's text) is its EINVALQUERY.
  const ttl = await call(client, "linkpeek_metadata", { url, ttl: "forever" });
  assert.equal(ttl._meta.code, "EINVALQUERY");
  assert.match(text(ttl), /ttl/);

  await assert.rejects(call(client, "linkpeek_nothing", { url }), /Unknown tool: linkpeek_nothing/);
  // A huge name is not echoed back whole.
  await assert.rejects(call(client, "x".repeat(100_000), { url }), (error: Error) => {
    assert.match(error.message, /Unknown tool: x+\.\.\./);
    assert.ok(error.message.length < 300, `${error.message.length} characters`);
    return true;
  });
  // The server still answers after all that.
  const ok = await call(client, "linkpeek_html", { url, selector: "h1" });
  assert.equal(text(ok), "<h1>Calm interfaces</h1>");
});

Deno.test("arguments nested past the API's deepest name are EINVALQUERY, not a stack overflow", async () => {
  await using service = await startService();
  // Written by hand: a client's JSON.stringify would overflow its own stack first.
  const nested = '{"a":'.repeat(40_000) + '"x"' + "}".repeat(40_000);
  const args = `{"url":"http://page.invalid/","data":{"x":{"attr":${nested}}}}`;
  const response = await fetch(`${service.origin}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: `{"jsonrpc":"2.0","id":7,"method":"tools/call",` +
      `"params":{"name":"linkpeek_metadata","arguments":${args}}}`,
  });
  assert.equal(response.status, 200);
  const { id, result, error } = await response.json();
  assert.equal(id, 7);
  assert.equal(error, undefined, JSON.stringify(error));
  assert.equal(result.isError, true);
  assert.equal(result._meta.code, "EINVALQUERY");
  assert.match(result.content[0].text, /^EINVALQUERY: .*`data\.x\.attr\.\.\.` nests too deep/);
  // The server answers the next call as ever.
  await using client = await httpClient(service.origin);
  const shallow = await call(client, "linkpeek_metadata", {
    url: "http://page.invalid/",
    data: { x: { attr: { a: { selector: "h1" } } } },
  });
  assert.equal(shallow._meta.code, "EFETCH");
});

Deno.test("a POST whose body stops arriving is answered 408 at the deadline, not held", async () => {
  await using service = await startService({ env: { REQUEST_TIMEOUT_MS: "1500" } });
  const conn = await Deno.connect({
    hostname: "127.0.0.1",
    port: Number(new URL(service.origin).port),
  });
  const head = "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n" +
    "content-type: application/json\r\naccept: application/json, text/event-stream\r\n" +
    "content-length: 100\r\n\r\n";
  // The head and a tenth of the body; the rest never comes.
  await conn.write(new TextEncoder().encode(`${head}{"jsonrpc"`));
  let answer = "";
  // Until the whole answer is in (the server need not close a connection whose body it skipped).
  const reading = (async () => {
    for await (const chunk of conn.readable) {
      answer += new TextDecoder().decode(chunk);
      const [head, body] = answer.split("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(head!)?.[1];
      if (body !== undefined && length && body.length >= Number(length)) break;
    }
  })();
  // Generous: the deadline is 1.5 s; a held request would never answer.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const held = new Promise<"held">((resolve) => timer = setTimeout(() => resolve("held"), 20_000));
  const outcome = await Promise.race([reading.then(() => "answered" as const), held]);
  clearTimeout(timer);
  // Leaving the loop closed the connection; a held one is closed here.
  if (outcome === "held") conn.close();
  assert.equal(outcome, "answered");
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.match(answer, /"code":-32000,"message":"Request Timeout: the body did not arrive within/);
  // The service answers the next request as ever.
  await using client = await httpClient(service.origin);
  assert.equal((await client.listTools()).tools.length, TOOLS.length);
});

Deno.test("a batch cancelling its own request is answered, not held", async () => {
  await using service = await startService();
  const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
  const cancel = (id: number) => ({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: id, reason: "changed my mind" },
  });
  // Asked of the service's handler as Deno.serve asks it: the old one never answered (the SDK
  // sends a cancelled request no answer, and a stateless POST waits for every answer), and a
  // server's shutdown waits for its requests.
  const answering = service.handler(
    new Request(`${service.origin}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify([list(1), cancel(1), list(2)]),
    }),
    { remoteAddr: "127.0.0.1" },
  );
  // Generous: an answer takes milliseconds; a held request would never answer.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const held = new Promise<"held">((resolve) => timer = setTimeout(() => resolve("held"), 20_000));
  const outcome = await Promise.race([answering, held]);
  clearTimeout(timer);
  assert.notEqual(outcome, "held", "no answer in 20 s");
  const response = outcome as Response;
  assert.equal(response.status, 200);
  const answers = await response.json();
  assert.deepEqual(answers.map((answer: Json) => answer.id), [1, 2]);
  for (const answer of answers) assert.equal(answer.result.tools.length, TOOLS.length);
});

Deno.test("keys: x-api-key and Bearer select pro with that key's limit; a bad key is EAUTH", async () => {
  await using target = site();
  await using service = await startService({
    trustPorts: [target.port],
    env: { FREE_DAILY_LIMIT: "50" },
  });
  const { key } = await createKey(service.handler.services.store, {
    name: "agent",
    dailyLimit: 2,
  });
  const url = `${target.origin}/article`;
  {
    await using viaHeader = await httpClient(service.origin, { "x-api-key": key });
    const result = await call(viaHeader, "linkpeek_html", { url, selector: "h1" });
    assert.equal(result.isError, undefined, JSON.stringify(result));
  }
  {
    await using viaBearer = await httpClient(service.origin, { authorization: `Bearer ${key}` });
    assert.equal(text(await call(viaBearer, "linkpeek_links", { url })).includes("/more"), true);
    // The key's own daily limit (2), not the free one (50): its third request is refused.
    const third = await call(viaBearer, "linkpeek_emails", { url });
    assert.equal(third._meta.code, "ERATE");
  }
  {
    await using bad = await httpClient(service.origin, { authorization: "Bearer lp_not-a-key" });
    const result = await call(bad, "linkpeek_metadata", { url });
    assert.equal(result.isError, true);
    assert.equal(result._meta.code, "EAUTH");
  }
});

Deno.test("free plan: each tool call counts as one request of the address, tools/list none", async () => {
  await using target = site();
  await using service = await startService({
    trustPorts: [target.port],
    env: { FREE_DAILY_LIMIT: "3" },
  });
  await using client = await httpClient(service.origin);
  const url = `${target.origin}/article`;
  for (let i = 0; i < 5; i++) await client.listTools();
  for (let i = 0; i < 3; i++) {
    const result = await call(client, "linkpeek_html", { url, selector: "h1" });
    assert.equal(result.isError, undefined, `call ${i + 1}: ${JSON.stringify(result)}`);
  }
  const fourth = await call(client, "linkpeek_html", { url, selector: "h1" });
  assert.equal(fourth._meta.code, "ERATE");
  assert.match(text(fourth), /daily limit of 3 requests/);
  // One count: the API at `/` from the same address is over the limit too.
  const api = await fetch(`${service.origin}/?url=${encodeURIComponent(url)}`);
  assert.equal(api.status, 429);
  await api.body?.cancel();
  // Tool calls are API requests in the service's metrics.
  const metrics = await (await fetch(`${service.origin}/metrics`)).text();
  assert.match(metrics, /linkpeek_requests_total\{[^}]*plan="free"[^}]*status="200"[^}]*\} 3/);
});

Deno.test("Origin: a foreign one is refused (403), PUBLIC_URL's and MCP_ALLOWED_ORIGINS get CORS", async () => {
  await using service = await startService({
    env: { MCP_ALLOWED_ORIGINS: "https://console.example" },
  });
  const endpoint = `${service.origin}/mcp`;
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "browser", version: "1" },
    },
  });
  const post = (origin: string | null) =>
    fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(origin ? { origin } : {}),
      },
      body: initialize,
    });

  const foreign = await post("http://evil.example:3000");
  assert.equal(foreign.status, 403);
  assert.equal(foreign.headers.get("access-control-allow-origin"), null);
  assert.match((await foreign.json()).error.message, /Origin/);

  for (const origin of ["http://linkpeek.test", "https://console.example"]) {
    const allowed = await post(origin);
    assert.equal(allowed.status, 200, origin);
    assert.equal(allowed.headers.get("access-control-allow-origin"), origin);
    assert.equal((await allowed.json()).result.serverInfo.name, "linkpeek");
  }
  const noOrigin = await post(null);
  assert.equal(noOrigin.status, 200);
  assert.equal(noOrigin.headers.get("access-control-allow-origin"), null);
  await noOrigin.body?.cancel();

  const preflight = (origin: string) =>
    fetch(endpoint, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST" },
    });
  const refused = await preflight("http://evil.example");
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  const granted = await preflight("https://console.example");
  assert.equal(granted.status, 204);
  assert.match(granted.headers.get("access-control-allow-headers")!, /mcp-protocol-version/);
  assert.match(granted.headers.get("access-control-allow-headers")!, /authorization/);

  // Stateless: no server-initiated stream, no session to end.
  for (const method of ["GET", "DELETE"]) {
    const response = await fetch(endpoint, { method, headers: { accept: "text/event-stream" } });
    assert.equal(response.status, 405, method);
    assert.equal(response.headers.get("allow"), "POST, OPTIONS");
    await response.body?.cancel();
  }

  // Only /mcp takes these methods: the API's own rules are unchanged.
  const postApi = await fetch(`${service.origin}/`, { method: "POST", body: "{}" });
  assert.equal(postApi.status, 405);
  assert.equal(postApi.headers.get("allow"), "GET, HEAD, OPTIONS");
  await postApi.body?.cancel();
  const apiPreflight = await preflight("http://evil.example");
  assert.equal(apiPreflight.status, 403, "(still /mcp's)");
  await apiPreflight.body?.cancel();
  const rootPreflight = await fetch(`${service.origin}/`, { method: "OPTIONS" });
  assert.equal(rootPreflight.headers.get("access-control-allow-origin"), "*");
  assert.equal(rootPreflight.headers.get("access-control-allow-methods"), "GET, HEAD, OPTIONS");
  await rootPreflight.body?.cancel();

  // The SDK's client, sent from a foreign page's origin, cannot connect.
  await assert.rejects(httpClient(service.origin, { origin: "http://evil.example" }), /403|Origin/);
});

Deno.test("the tool table's queries: fixed parameters, arguments as dotted API names", () => {
  const query = (name: string, args: Json) =>
    TOOLS.find((tool) => tool.name === name)!.query(args).toString();
  assert.equal(
    decodeURIComponent(query("linkpeek_insights", { lighthouse: { preset: "desktop" } })),
    "meta.url=true&insights.technologies=true&insights.lighthouse.preset=desktop",
  );
  assert.equal(
    decodeURIComponent(query("linkpeek_pdf", { format: "A4", margin: { top: "1cm" } })),
    "meta.url=true&pdf=true&pdf.format=A4&pdf.margin.top=1cm",
  );
  assert.equal(
    decodeURIComponent(
      query("linkpeek_metadata", { click: ["#a", "#b"], headers: { "x-y": "z" } }),
    ),
    "click.0=#a&click.1=#b&headers.x-y=z",
  );
  assert.equal(
    decodeURIComponent(query("linkpeek_text", {})),
    "meta.url=true&text=true",
  );
});
