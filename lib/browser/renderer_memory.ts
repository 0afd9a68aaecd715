/**
 * A page's memory bound. V8's heap flag does not bound ArrayBuffer backing stores, blobs,
 * canvas or media: one page could hold gigabytes. While visits run, a watchdog samples every
 * renderer's resident memory (pids from CDP `SystemInfo.getProcessInfo`, sizes from their
 * /proc/<pid>/statm, read by a ProcReader) every SAMPLE_MS and kills a renderer past the limit. Each visit has a
 * context of its own, so the renderer is that visit's alone: its tab crashes and the visit
 * answers as any crashed tab does (EBROWSER), and the next visit gets a fresh renderer.
 */
import type { Browser, CDPSession } from "puppeteer-core";
import { log } from "../util/log.ts";
import { ProcReader } from "../util/proc_reader.ts";

/** At ~0.3-1 GB/s of filling (measured), a renderer passes the limit by at most ~100 MB. */
const SAMPLE_MS = 100;

let pageBytes: Promise<number> | null = null;

/** Bytes per memory page, the unit of statm (asked of `getconf` once; 4096 if it cannot say). */
function pageSize(): Promise<number> {
  pageBytes ??= new Deno.Command("getconf", { args: ["PAGESIZE"], stdin: "null", stderr: "null" })
    .output()
    .then(({ stdout }) => Number(new TextDecoder().decode(stdout).trim()) || 4096, () => 4096);
  return pageBytes;
}

/** Resident bytes of each pid still running, from the second field of its statm. */
async function residentSizes(proc: ProcReader, pids: number[]): Promise<Map<number, number>> {
  const page = await pageSize();
  const lines = await proc.firstLines(pids.map((pid) => `/proc/${pid}/statm`));
  const sizes = new Map<number, number>();
  for (const pid of pids) {
    const pages = Number(lines.get(`/proc/${pid}/statm`)?.split(" ")[1]);
    if (Number.isFinite(pages)) sizes.set(pid, pages * page);
  }
  return sizes;
}

export class RendererMemoryWatch {
  readonly #browser: Browser;
  readonly #limitBytes: number;
  readonly #busy: () => boolean;
  #session: Promise<CDPSession> | null = null;
  #proc: ProcReader | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(browser: Browser, options: { limitBytes: number; busy: () => boolean }) {
    this.#browser = browser;
    this.#limitBytes = options.limitBytes;
    this.#busy = options.busy;
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    void this.#session?.then((session) => session.detach()).catch(() => {});
    void this.#proc?.close();
  }

  #schedule(): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#sample().catch(() => {}).finally(() => this.#schedule());
    }, SAMPLE_MS);
    // The watchdog alone never keeps the process alive.
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  async #sample(): Promise<void> {
    if (this.#stopped || !this.#busy() || !this.#browser.connected) return;
    this.#session ??= this.#browser.target().createCDPSession();
    const { processInfo } = await (await this.#session).send("SystemInfo.getProcessInfo");
    const renderers = processInfo.filter((p) => p.type === "renderer").map((p) => p.id);
    if (this.#stopped) return; // its reader is closed, or would never be
    this.#proc ??= new ProcReader();
    for (const [id, bytes] of await residentSizes(this.#proc, renderers)) {
      if (bytes <= this.#limitBytes) continue;
      try {
        Deno.kill(id, "SIGKILL");
      } catch {
        continue; // gone already
      }
      log.warn("renderer over its memory limit killed", {
        pid: id,
        residentMb: Math.round(bytes / 2 ** 20),
        limitMb: Math.round(this.#limitBytes / 2 ** 20),
      });
    }
  }
}
