/**
 * What Linux's /proc tells about this process (open and allowed file descriptors) and about the
 * browser's process tree (how many processes, their resident memory), read by a ProcReader
 * (which works under `deno task start`'s flags too). Every reader answers null where /proc
 * cannot be read (another OS, a sandbox), and /metrics leaves that series out. When the
 * ProcReader reads through its shell, that shell's descriptors are not this process's; the
 * pipes to it are, and are counted in process_open_fds as a direct listing counts its own.
 */
import type { ProcReader } from "../util/proc_reader.ts";

/** Entries of this process's fd directory (the reader's own descriptors included). */
export async function openFds(proc: ProcReader): Promise<number | null> {
  return (await proc.list(`/proc/${Deno.pid}/fd`))?.length ?? null;
}

/** The soft limit on open files, from /proc/<pid>/limits. */
export async function maxFds(proc: ProcReader): Promise<number | null> {
  const limits = await proc.read([`/proc/${Deno.pid}/limits`]);
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
export async function processTree(proc: ProcReader, pid: number): Promise<ProcessTree | null> {
  const names = await proc.list("/proc");
  if (names === null) return null;
  const pids = names.filter((name) => /^\d+$/.test(name));
  // Processes that exited since the listing are left out.
  const stats = await proc.read(pids.map((p) => `/proc/${p}/stat`));
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
  const rollups = await proc.read(tree.map((p) => `/proc/${p}/smaps_rollup`));
  return {
    processes: tree.length,
    residentBytes: sumKb(rollups, "Rss"),
    proportionalBytes: sumKb(rollups, "Pss"),
  };
}
