/**
 * The stdio server as a desktop client starts it: the SDK's StdioClientTransport spawns the
 * `deno task mcp` command (and `main.ts mcp`, what the compiled `linkpeek mcp` runs), which
 * forwards to the real service on loopback. Any line on stdout that is not a protocol message
 * would reach the client's onerror: the tests fail on it.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import denoJson from "../../deno.json" with { type: "json" };
import { PERMISSIONS } from "../../lib/cli/compile.ts";
import { createKey } from "../../lib/plans/mod.ts";
import { site, startService } from "./_service.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const ROOT = new URL("../../", import.meta.url).pathname;

/** `deno task mcp`'s command, run directly (a `deno task` shell would outlive a kill). */
const TASK_ARGS = denoJson.tasks.mcp.split(/\s+/).slice(1);

interface StdioSession extends AsyncDisposable {
  client: Client;
  /** Errors the client met reading stdout (a stray line would be one). */
  errors: unknown[];
  call(name: string, args: Json): Promise<Json>;
}

async function stdioClient(env: Record<string, string>, args = TASK_ARGS): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), NO_COLOR: "1", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "linkpeek-stdio-test", version: "1.0.0" });
  const errors: unknown[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    errors,
    call: async (name, args) => await client.callTool({ name, arguments: args }) as Json,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

Deno.test("stdio (deno task mcp): tools, payloads, an image and an error, forwarded to LINKPEEK_URL", async () => {
  await using target = site();
  await using untrusted = site();
  await using service = await startService({ trustPorts: [target.port] });
  const url = `${target.origin}/article`;
  await using session = await stdioClient({ LINKPEEK_URL: service.origin });

  const { tools } = await session.client.listTools();
  assert.equal(tools.length, 13);
  assert.ok(tools.every((tool) => tool.name.startsWith("linkpeek_")));

  const metadata = await session.call("linkpeek_metadata", { url });
  assert.equal(metadata.structuredContent.data.title, "Calm interfaces");
  assert.equal(metadata.structuredContent.statusCode, 200);

  const markdown = await session.call("linkpeek_markdown", { url });
  assert.match(markdown.content[0].text, /^# Calm interfaces/);

  // The image is fetched from the service by path, whatever its PUBLIC_URL says.
  const screenshot = await session.call("linkpeek_screenshot", {
    url,
    viewport: { width: 400, height: 300 },
    type: "jpeg",
  });
  const image = screenshot.content.find((c: Json) => c.type === "image");
  assert.equal(image?.mimeType, "image/jpeg");
  assert.equal(atob(image.data.slice(0, 4)).charCodeAt(0), 0xff);

  const forbidden = await session.call("linkpeek_metadata", { url: `${untrusted.origin}/` });
  assert.equal(forbidden.isError, true);
  assert.equal(forbidden._meta.code, "EFORBIDDENURL");

  const invalid = await session.call("linkpeek_pdf", { url, format: "B7" });
  assert.equal(invalid._meta.code, "EINVALQUERY");

  assert.deepEqual(session.errors, []);
});

Deno.test("stdio: LINKPEEK_API_KEY is the caller's key on the pro endpoint; a bad one is EAUTH", async () => {
  await using target = site();
  await using service = await startService({ trustPorts: [target.port], pro: true });
  const { key } = await createKey(service.handler.services.store, { name: "desktop" });
  const url = `${target.origin}/article`;
  {
    await using session = await stdioClient({
      LINKPEEK_URL: service.proOrigin!,
      LINKPEEK_API_KEY: key,
    });
    const result = await session.call("linkpeek_links", { url });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.equal(result.structuredContent.data.links.length, 3);
  }
  {
    // A key is for the pro endpoint, as for any API client.
    await using session = await stdioClient({
      LINKPEEK_URL: service.origin,
      LINKPEEK_API_KEY: key,
    });
    const result = await session.call("linkpeek_links", { url });
    assert.equal(result._meta.code, "EPRO");
  }
  {
    await using session = await stdioClient({
      LINKPEEK_URL: service.proOrigin!,
      LINKPEEK_API_KEY: "lp_revoked-or-never-made",
    });
    const result = await session.call("linkpeek_links", { url });
    assert.equal(result._meta.code, "EAUTH");
    assert.deepEqual(session.errors, []);
  }
});

Deno.test("stdio: an unreachable service is a tool result saying so", async () => {
  // A port that was just listening on loopback, and is closed now.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  await using session = await stdioClient({ LINKPEEK_URL: `http://127.0.0.1:${port}` });
  const result = await session.call("linkpeek_metadata", { url: "https://example.invalid/" });
  assert.equal(result.isError, true);
  assert.equal(result._meta.code, "EUNAVAILABLE");
  assert.match(result.content[0].text, /not reachable.*LINKPEEK_URL/);
});

Deno.test("stdio: `main.ts mcp`, as the compiled `linkpeek mcp` runs, serves the same tools", async () => {
  await using session = await stdioClient(
    { LINKPEEK_URL: "http://127.0.0.1:9" },
    ["run", ...PERMISSIONS, "main.ts", "mcp"],
  );
  const { tools } = await session.client.listTools();
  assert.equal(tools.length, 13);
  assert.deepEqual(session.errors, []);
});
