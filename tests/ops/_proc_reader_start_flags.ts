/**
 * Run by proc_reader_test.ts under `deno task start`'s own permission flags, where Deno refuses
 * /proc: what a ProcReader reads of this process, printed as JSON for the parent to check.
 */
import { ProcReader } from "../../lib/util/proc_reader.ts";

await using proc = new ProcReader();
const own = `/proc/${Deno.pid}`;
const [fds, limits, lines, gone, outside] = await Promise.all([
  proc.list(`${own}/fd`),
  proc.read([`${own}/limits`, "/proc/0/limits"]),
  proc.firstLines([`${own}/statm`, `${own}/stat`, "/proc/0/statm"]),
  proc.list("/proc/0/fd"),
  // Neither under /proc nor a plain path: never handed to the shell.
  proc.read(["/etc/hostname", "/proc/1/stat;id", "/proc/../etc/hostname"]),
]);
let direct: string;
try {
  await Deno.readTextFile(`${own}/statm`);
  direct = "read";
} catch (error) {
  direct = error instanceof Error ? error.name : String(error);
}
// The parent test reads this line.
// deno-lint-ignore no-console
console.log(JSON.stringify({
  pid: Deno.pid,
  direct,
  fds,
  limits,
  lines: Object.fromEntries(lines),
  gone,
  outside,
}));
