/**
 * JSON-RPC's Invalid params (-32602) for a tools/call the protocol cannot read: `arguments` not
 * an object, or no tool name. The SDK's request check failed such a call as an internal error
 * (-32603), as if the server had broken. Raw POSTs, and the SDK's client sending such a request
 * as it would any (stdio serves the same createMcpServer).
 */
import assert from "node:assert/strict";
import { CallToolResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { TOOLS } from "../../lib/mcp/tools.ts";
import { httpClient, startService } from "./_service.ts";

/** One JSON-RPC request POSTed to `/mcp`; its JSON answer. */
async function rpc(origin: string, body: string) {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
  assert.equal(response.status, 200);
  return await response.json();
}

Deno.test("tools/call with arguments that are not an object is -32602 naming them", async (t) => {
  await using service = await startService();
  const cases: Record<string, [string, string]> = {
    "a string": ['"url=http://page.invalid/"', "a string"],
    "a number": ["42", "a number"],
    "an array": ['["http://page.invalid/"]', "an array"],
    "null": ["null", "null"],
    "a boolean": ["true", "a boolean"],
  };
  let id = 0;
  for (const [name, [args, shown]] of Object.entries(cases)) {
    await t.step(name, async () => {
      const answer = await rpc(
        service.origin,
        `{"jsonrpc":"2.0","id":${++id},"method":"tools/call",` +
          `"params":{"name":"linkpeek_metadata","arguments":${args}}}`,
      );
      assert.equal(answer.id, id);
      assert.equal(answer.result, undefined, JSON.stringify(answer.result));
      assert.equal(answer.error.code, -32602, answer.error.message);
      assert.equal(
        answer.error.message,
        `MCP error -32602: tools/call \`arguments\` must be an object of the tool's arguments, ` +
          `got ${shown}.`,
      );
    });
  }
  await t.step("no tool name", async () => {
    const answer = await rpc(
      service.origin,
      `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"arguments":{}}}`,
    );
    assert.equal(answer.error.code, -32602, answer.error.message);
    assert.equal(answer.error.message, "MCP error -32602: tools/call `name` must be a string.");
  });
  await t.step("an object, and none at all, still reach the tool", async () => {
    for (
      const params of [
        '{"name":"linkpeek_metadata","arguments":{}}',
        '{"name":"linkpeek_metadata"}',
      ]
    ) {
      const answer = await rpc(
        service.origin,
        `{"jsonrpc":"2.0","id":100,"method":"tools/call","params":${params}}`,
      );
      // The tool ran: the missing `url` is a tool result, as ever.
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      assert.equal(answer.result.isError, true);
      assert.equal(answer.result._meta.code, "EINVALQUERY");
      assert.match(answer.result._meta.message, /the argument `url` is required/);
    }
  });
  await t.step("an unknown method is still -32601", async () => {
    const answer = await rpc(service.origin, `{"jsonrpc":"2.0","id":101,"method":"tools/run"}`);
    assert.equal(answer.error.code, -32601, answer.error.message);
  });
  await t.step("the SDK's client hears Invalid params", async () => {
    await using client = await httpClient(service.origin);
    const request = { method: "tools/call", params: { name: "linkpeek_metadata", arguments: "x" } };
    await assert.rejects(client.request(request, CallToolResultSchema), (error: McpError) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, ErrorCode.InvalidParams);
      assert.match(error.message, /`arguments` must be an object of the tool's arguments/);
      return true;
    });
    // The server answers a well-formed call as ever.
    assert.equal((await client.listTools()).tools.length, TOOLS.length);
  });
});
