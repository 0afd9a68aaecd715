/**
 * ProcReader under `deno task start`'s flags, where Deno refuses every /proc path and the reader
 * goes through its shell: it lists, reads and takes first lines as a direct read would, leaves
 * out what is gone, and hands the shell nothing but plain /proc paths.
 */
import assert from "node:assert/strict";
import { ProcReader } from "../../lib/util/proc_reader.ts";

interface Report {
  pid: number;
  direct: string;
  fds: string[] | null;
  limits: string;
  lines: Record<string, string>;
  gone: string[] | null;
  outside: string;
}

async function startFlags(): Promise<string[]> {
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)))
    .tasks as Record<string, string>;
  const flags = (tasks.start ?? "").split(" ").filter((word) => word.startsWith("--allow-"));
  assert.ok(!flags.includes("--allow-all") && flags.length > 0, tasks.start ?? "no start task");
  return flags;
}

Deno.test("ProcReader reads /proc through its shell under deno task start's flags", async () => {
  const script = new URL("./_proc_reader_start_flags.ts", import.meta.url).pathname;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...await startFlags(), script],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.code, 0, new TextDecoder().decode(run.stderr).slice(-2000));
  const out = new TextDecoder().decode(run.stdout).trim().split("\n").at(-1) ?? "";
  const report = JSON.parse(out) as Report;
  const own = `/proc/${report.pid}`;

  assert.equal(report.direct, "NotCapable", "Deno itself may not read /proc under these flags");
  assert.ok(report.fds && report.fds.length >= 3, `fd listing ${report.fds}`);
  assert.ok(report.fds.every((name) => /^\d+$/.test(name)), `fd names ${report.fds}`);
  assert.match(report.limits, /^Max open files\s+\d+/m);
  assert.deepEqual(Object.keys(report.lines).sort(), [`${own}/stat`, `${own}/statm`]);
  assert.match(report.lines[`${own}/statm`]!, /^\d+ \d+ \d+ \d+ \d+ \d+ \d+$/);
  assert.ok(report.lines[`${own}/stat`]!.startsWith(`${report.pid} (`));
  assert.equal(report.gone, null, "a directory that does not exist lists as null");
  assert.equal(report.outside, "", "paths outside /proc, or a shell could split, are not read");
});

Deno.test("ProcReader reads directly when every permission is granted", async () => {
  await using proc = new ProcReader();
  const own = `/proc/${Deno.pid}`;
  const lines = await proc.firstLines([`${own}/statm`, "/proc/0/statm"]);
  assert.deepEqual([...lines.keys()], [`${own}/statm`]);
  assert.match(lines.get(`${own}/statm`)!, /^\d+ \d+ /);
  assert.match(await proc.read([`${own}/limits`]), /^Max open files\s+\d+/m);
  assert.ok((await proc.list(`${own}/fd`))!.length >= 3);
});
