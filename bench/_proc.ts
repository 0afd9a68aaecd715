/** Process figures the browser benchmarks print, read from /proc (Linux only). */
import { processTree } from "../lib/metrics/process.ts";
import { ProcReader } from "../lib/util/proc_reader.ts";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux build here). */
const TICKS = 100;

/** Fields after the command name of /proc/<pid>/stat (the name may hold spaces). */
function statFields(pid: number): string[] | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null; // gone
  }
}

/** Parent of every live process. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const fields = statFields(Number(entry.name));
    if (fields) out.set(Number(entry.name), Number(fields[1]));
  }
  return out;
}

/** `pid` and its descendants. */
export function treeOf(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) {
    byParent.set(parent, [...(byParent.get(parent) ?? []), child]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    tree.push(...(byParent.get(tree[i]!) ?? []));
  }
  return tree;
}

/**
 * CPU seconds of `pid` alone (`self`) or of its whole tree, reaped children included (a closed
 * renderer's time lands in its parent's cutime/cstime).
 */
export function cpuSeconds(pid: number, scope: "self" | "tree"): number {
  const pids = scope === "self" ? [pid] : treeOf(pid);
  let ticks = 0;
  for (const p of pids) {
    const fields = statFields(p);
    if (!fields) continue;
    // utime, stime (own); cutime, cstime (reaped children): fields 14-17 of stat.
    ticks += Number(fields[11]) + Number(fields[12]);
    if (scope === "tree") ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS;
}

/** The Chromium this process launched with a linkpeek profile (lib/browser/launch.ts). */
export function linkpeekChromium(): number | null {
  for (const [pid, parent] of parents()) {
    if (parent !== Deno.pid) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
      if (cmdline.includes("linkpeek-chromium-")) return pid;
    } catch {
      // gone
    }
  }
  return null;
}

/** Summed RSS of a process tree in bytes (0 when it is not running). */
export async function treeRss(pid: number | null): Promise<number> {
  if (pid === null) return 0;
  await using proc = new ProcReader();
  return (await processTree(proc, pid))?.residentBytes ?? 0;
}

/**
 * Summed resident size of a process tree from /proc/<pid>/statm: ~2 ms of CPU a sample where
 * treeRss's smaps_rollup walk costs ~50 ms, which at 10 samples a second stole a good part of
 * a core from the very processes a peak sampler watches.
 */
export function treeResident(pid: number | null): number {
  if (pid === null) return 0;
  let pages = 0;
  for (const p of treeOf(pid)) {
    try {
      pages += Number(Deno.readTextFileSync(`/proc/${p}/statm`).split(" ")[1]) || 0;
    } catch {
      // gone
    }
  }
  return pages * PAGE_BYTES;
}

/** Page size of statm's counts (4 KiB on every Linux build here). */
const PAGE_BYTES = 4096;

/** Peak of `read()` sampled every `ms` until stop() (which answers the peak). */
export function peakOf(
  read: () => Promise<number>,
  ms = 100,
): { stop(): number } {
  let peak = 0;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    read().then((value) => (peak = Math.max(peak, value))).finally(
      () => (busy = false),
    );
  }, ms);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** A target's verdict as the benches print it. */
export const verdict = (ok: boolean) => ok ? "PASS" : "NOT MET";

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
  ] ?? NaN;
}

/** Open descriptors of `pid` (its /proc/<pid>/fd entries). */
export function fdCount(pid: number): number {
  return [...Deno.readDirSync(`/proc/${pid}/fd`)].length;
}

/** One line of the machine's load, to print beside noisy figures. */
export function conditions(): string {
  const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3)
    .join(" ");
  return `${navigator.hardwareConcurrency} cores, load average ${load} (shared machine: noisy)`;
}
