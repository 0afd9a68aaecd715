/**
 * The MCP Inspector's CLI mode (the tool people use to check a server), pinned in tests/tools
 * under its own lock (a first `deno task start` never downloads it),
 * against /mcp on the real service: tools/list with --strict (its schema portability check)
 * and one tools/call. The Inspector keeps its state under HOME: a temporary one here.
 */
import assert from "node:assert/strict";
import { runInspector, withoutDenoNotices } from "../tools/mod.ts";
import { site, startService } from "./_service.ts";

/** The Inspector's CLI under a HOME of its own, removed after. */
async function inspector(args: string[]) {
  const home = await Deno.makeTempDir({ prefix: "linkpeek-inspector-" });
  try {
    return await runInspector(args, home);
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
  assert.equal(withoutDenoNotices(list.stderr).trim(), "");

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
