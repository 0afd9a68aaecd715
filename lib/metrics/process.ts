/**
 * What Linux's /proc tells about this process (open and allowed file descriptors) and about the
 * browser's process tree (how many processes, their resident memory). Every reader answers null
 * where /proc cannot be read (another OS, a sandbox), and /metrics leaves that series out.
 */

async function readText(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/** Entries of /proc/self/fd (the listing's own descriptor included, as every exporter does). */
export async function openFds(): Promise<number | null> {
  try {
    let count = 0;
    for await (const _ of Deno.readDir("/proc/self/fd")) count++;
    return count;
  } catch {
    return null;
  }
}

/** The soft limit on open files, from /proc/self/limits. */
export async function maxFds(): Promise<number | null> {
  const limits = await readText("/proc/self/limits");
  const line = limits?.split("\n").find((l) => l.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : null;
}

/** Parent pid from /proc/<pid>/stat; the command name may hold spaces and parentheses. */
function parentPid(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

interface Memory {
  rss: number;
  pss: number;
}

/**
 * Resident (RSS) and proportional (PSS: shared pages split between their users) set sizes in
 * bytes, from /proc/<pid>/smaps_rollup (values in kB); zeros for a zombie or a process gone.
 */
async function memoryOf(pid: number): Promise<Memory> {
  const rollup = await readText(`/proc/${pid}/smaps_rollup`);
  const kb = (name: string) =>
    Number(rollup?.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
  return { rss: kb("Rss") * 1024, pss: kb("Pss") * 1024 };
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
  const pids: number[] = [];
  try {
    for await (const entry of Deno.readDir("/proc")) {
      if (/^\d+$/.test(entry.name)) pids.push(Number(entry.name));
    }
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  let rootAlive = false;
  await Promise.all(pids.map(async (child) => {
    const stat = await readText(`/proc/${child}/stat`);
    if (stat === null) return; // exited since the listing
    if (child === pid) rootAlive = true;
    const parent = parentPid(stat);
    if (parent === null) return;
    const siblings = children.get(parent);
    if (siblings) siblings.push(child);
    else children.set(parent, [child]);
  }));
  if (!rootAlive) return NO_TREE;
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  const sizes = await Promise.all(tree.map(memoryOf));
  return {
    processes: tree.length,
    residentBytes: sizes.reduce((sum, m) => sum + m.rss, 0),
    proportionalBytes: sizes.reduce((sum, m) => sum + m.pss, 0),
  };
}
