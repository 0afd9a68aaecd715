/** Where the `function` sandbox can start: refused in a `deno compile` binary (sandboxRuntime). */
import assert from "node:assert/strict";
import { currentSandboxRuntime, sandboxRuntime } from "../../lib/browser/function/runtime.ts";
import { ERRORS } from "../../lib/util/errors.ts";

const SOURCE = "file:///work/linkpeek/lib/browser/function/runtime.ts";

Deno.test("sandboxRuntime() starts the sandbox with the deno running linkpeek", () => {
  for (const execPath of ["/usr/bin/deno", "/home/me/.deno/bin/deno", "C:\\deno\\deno.exe"]) {
    assert.deepEqual(sandboxRuntime({ execPath, moduleUrl: SOURCE }), { deno: execPath });
  }
  // These tests run under deno: the real process is one that can.
  assert.deepEqual(currentSandboxRuntime(), { deno: Deno.execPath() });
});

Deno.test("sandboxRuntime() refuses in a compiled binary, whatever it is named", () => {
  const compiled = [
    { execPath: "/usr/local/bin/linkpeek", moduleUrl: SOURCE },
    // deno compile's module root, even for a binary someone named `deno`.
    {
      execPath: "/opt/deno",
      moduleUrl: "file:///tmp/deno-compile-deno/lib/browser/function/runtime.ts",
    },
    {
      execPath: "C:\\bin\\linkpeek.exe",
      moduleUrl: "file:///C:/Users/me/AppData/Local/Temp/deno-compile-linkpeek.exe/lib/x.ts",
    },
  ];
  for (const self of compiled) {
    const decided = sandboxRuntime(self);
    assert.ok("refused" in decided, JSON.stringify(self));
    assert.match(decided.refused, /compiled binary/);
  }
  assert.equal(ERRORS.EFUNCTIONUNAVAILABLE.status, 501);
});
