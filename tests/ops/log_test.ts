import assert from "node:assert/strict";
import { evalTs } from "../_eval.ts";

const LOG_MODULE = new URL("../../lib/util/log.ts", import.meta.url).href;

/** A process that logs through lib/util/log.ts and ends the way `ending` says. */
async function logIn(ending: string): Promise<{ stdout: string[]; stderr: string[] }> {
  const script = `import { log } from "${LOG_MODULE}";
for (let i = 0; i < 3; i++) log.info("line", { i });
log.warn("careful");
${ending}`;
  const output = await evalTs(script);
  const lines = (text: string) => text.split("\n").filter((l) => l.startsWith("{"));
  return { stdout: lines(output.stdout), stderr: lines(output.stderr) };
}

Deno.test("gathered log lines all reach stdout, in order, however the process ends", async () => {
  for (const ending of ["", "Deno.exit(0);", "await new Promise((r) => setTimeout(r, 50));"]) {
    const { stdout } = await logIn(ending);
    const messages = stdout.map((l) => JSON.parse(l)).map((l) => `${l.msg}${l.i ?? ""}`);
    assert.deepEqual(messages, ["line0", "line1", "line2", "careful"], `ending: ${ending}`);
  }
});

Deno.test("an error line goes to stderr, and the lines logged before it are written too", async () => {
  const { stdout, stderr } = await logIn(`log.error("broken");
await new Promise((r) => setTimeout(r, 1000));
Deno.exit(1);`);
  assert.equal(stdout.length, 4);
  assert.deepEqual(stderr.map((l) => JSON.parse(l).msg), ["broken"]);
});
