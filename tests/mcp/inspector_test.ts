/**
 * The MCP Inspector's CLI mode (the tool people use to check a server), pinned in deno.json,
 * against /mcp on the real service: tools/list with --strict (its schema portability check)
 * and one tools/call. The Inspector keeps its state under HOME: a temporary one here.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { site, startService } from "./_service.ts";

const INSPECTOR = denoJson.imports["@modelcontextprotocol/inspector"];

/** Deno's cache, named outright: under another HOME, Deno would look for it there. */
async function denoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

async function inspector(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = await Deno.makeTempDir({ prefix: "linkpeek-inspector-" });
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", INSPECTOR, "--cli", ...args],
      cwd: new URL("../../", import.meta.url).pathname,
      env: { HOME: home, DENO_DIR: await denoDir(), NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code, stdout: decode(stdout), stderr: decode(stderr) };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("MCP Inspector CLI: tools/list (strict) and tools/call against /mcp", async () => {
  await using target = site();
  await using service = await startService({ trustPorts: [target.port] });
  const endpoint = `${service.origin}/mcp`;

  const list = await inspector([endpoint, "--method", "tools/list", "--strict"]);
  assert.equal(list.code, 0, list.stderr);
  const { tools } = JSON.parse(list.stdout);
  assert.equal(tools.length, 13);
  // --strict reports any schema a client dialect could reject ("Schema portability: ...").
  assert.equal(list.stderr.trim(), "");

  const call = await inspector([
    endpoint,
    "--method",
    "tools/call",
    "--tool-name",
    "linkpeek_html",
    "--tool-arg",
    `url=${target.origin}/article`,
    "selector=h1",
  ]);
  assert.equal(call.code, 0, call.stderr);
  const result = JSON.parse(call.stdout);
  assert.equal(result.content[0].text, "<h1>Calm interfaces</h1>");
  assert.equal(result.structuredContent.statusCode, 200);
});
