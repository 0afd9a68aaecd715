/**
 * What Linux's /proc tells about this process (open and allowed file descriptors) and about the
 * browser's process tree (how many processes, their resident memory). Every reader answers null
 * where /proc cannot be read (another OS, a sandbox), and /metrics leaves that series out.
 *
 * Deno refuses every path under /proc unless all of its permissions are granted (`--allow-all`:
 * even `--allow-read=/proc` is refused with NotCapable, "Requires all access"), and
 * `deno task start` grants fewer. It does grant spawning, so where a direct read is refused
 * (once; the answer is remembered) `ls` and `cat` read /proc instead. Their descriptors (a
 * pipe, a pidfd) are then counted in process_open_fds too, as a direct listing counts its own.
 */

/** False once Deno refused a /proc read for want of --allow-all. */
let direct = true;

function refused(error: unknown): boolean {
  if (!(error instanceof Deno.errors.NotCapable)) return false;
  direct = false;
  return true;
}

const decoder = new TextDecoder();

/** What `command` printed, or null when it could not run or printed nothing. */
async function outputOf(command: string, args: string[]): Promise<string | null> {
  try {
    const { stdout } = await new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    // A file that vanished mid-read makes the exit status non-zero: the rest still counts.
    return stdout.length ? decoder.decode(stdout) : null;
  } catch {
    return null;
  }
}

/** Names in a /proc directory, or null when it cannot be listed. */
async function listing(dir: string): Promise<string[] | null> {
  if (direct) {
    try {
      const names: string[] = [];
      for await (const entry of Deno.readDir(dir)) names.push(entry.name);
      return names;
    } catch (error) {
      if (!refused(error)) return null;
    }
  }
  const text = await outputOf("ls", ["-1", "-U", dir]);
  return text === null ? null : text.split("\n").filter(Boolean);
}

/** The files' texts one after the other; files that cannot be read (gone) are left out. */
async function contents(paths: string[]): Promise<string> {
  if (direct) {
    try {
      const texts = await Promise.all(paths.map((path) =>
        Deno.readTextFile(path).catch((error) => {
          if (error instanceof Deno.errors.NotCapable) throw error;
          return "";
        })
      ));
      return texts.join("");
    } catch (error) {
      if (!refused(error)) return "";
    }
  }
  return await outputOf("cat", paths) ?? "";
}

/** Entries of this process's fd directory (the listing's own descriptors included). */
export async function openFds(): Promise<number | null> {
  return (await listing(`/proc/${Deno.pid}/fd`))?.length ?? null;
}

/** The soft limit on open files, from /proc/<pid>/limits. */
export async function maxFds(): Promise<number | null> {
  const limits = await contents([`/proc/${Deno.pid}/limits`]);
  const line = limits.split("\n").find((l) => l.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : null;
}

/**
 * [pid, parent pid] of each /proc/<pid>/stat line. The command name, in parentheses, may hold
 * spaces and parentheses: the fields start after the line's last ")".
 */
function* parents(stats: string): Iterable<[number, number]> {
  for (const line of stats.split("\n")) {
    const close = line.lastIndexOf(")");
    if (close < 0) continue;
    const pid = Number(line.slice(0, line.indexOf(" ")));
    const ppid = Number(line.slice(close + 2).split(" ")[1]);
    if (Number.isInteger(pid) && Number.isInteger(ppid)) yield [pid, ppid];
  }
}

/** Bytes of a `name:   123 kB` field summed over every smaps_rollup in `text`. */
function sumKb(text: string, name: string): number {
  let kb = 0;
  for (const match of text.matchAll(new RegExp(`^${name}:\\s+(\\d+) kB`, "gm"))) {
    kb += Number(match[1]);
  }
  return kb * 1024;
}

export interface ProcessTree {
  processes: number;
  /** Sum of each process's RSS: pages shared between them are counted once per process. */
  residentBytes: number;
  /** Sum of each process's PSS: what the tree costs the machine, shared pages counted once. */
  proportionalBytes: number;
}

export const NO_TREE: ProcessTree = { processes: 0, residentBytes: 0, proportionalBytes: 0 };

/** `pid` and all its descendants, found from every process's parent in /proc. */
export async function processTree(pid: number): Promise<ProcessTree | null> {
  const names = await listing("/proc");
  if (names === null) return null;
  const pids = names.filter((name) => /^\d+$/.test(name));
  // Processes that exited since the listing are left out.
  const stats = await contents(pids.map((p) => `/proc/${p}/stat`));
  const children = new Map<number, number[]>();
  let rootAlive = false;
  for (const [child, parent] of parents(stats)) {
    if (child === pid) rootAlive = true;
    const siblings = children.get(parent);
    if (siblings) siblings.push(child);
    else children.set(parent, [child]);
  }
  if (!rootAlive) return NO_TREE;
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  // Rss and Pss are summed over the tree: a zombie or a process gone adds nothing.
  const rollups = await contents(tree.map((p) => `/proc/${p}/smaps_rollup`));
  return {
    processes: tree.length,
    residentBytes: sumKb(rollups, "Rss"),
    proportionalBytes: sumKb(rollups, "Pss"),
  };
}
