/**
 * The service's Prometheus series, kept in memory and rendered as text exposition format 0.0.4:
 * API requests, cache, fetched bytes and guard refusals; the browser pool; and the process
 * (memory, CPU, file descriptors, event-loop delay) and its Chromium processes.
 */
import process from "node:process";
import type { BrowserStats } from "../browser/types.ts";
import { REFUSAL_KINDS, REFUSAL_STAGES, refusalCount } from "../guard/refusal.ts";
import { CONNECTION_KINDS, connectionCount } from "../fetch/pool.ts";
import { eventLoopDelay } from "./event_loop.ts";
import { Exposition, Histogram, type Labels } from "./exposition.ts";
import { maxFds, NO_TREE, openFds, processTree } from "./process.ts";
import { ProcReader } from "../util/proc_reader.ts";

const BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Counts by label set; the hot path builds a short id, labels are rendered only on scrape. */
class LabelledCounter {
  readonly #series = new Map<string, { labels: Labels; value: number }>();

  add(id: string, labels: () => Labels): void {
    const found = this.#series.get(id);
    if (found) found.value += 1;
    else this.#series.set(id, { labels: labels(), value: 1 });
  }

  get(id: string): number {
    return this.#series.get(id)?.value ?? 0;
  }

  total(): number {
    let sum = 0;
    for (const { value } of this.#series.values()) sum += value;
    return sum;
  }

  *samples(): Iterable<[Labels, number]> {
    for (const { labels, value } of this.#series.values()) yield [labels, value];
  }
}

function* refusalSamples(): Iterable<[Labels, number]> {
  for (const kind of REFUSAL_KINDS) {
    for (const stage of REFUSAL_STAGES) yield [{ kind, stage }, refusalCount(kind, stage)];
  }
}

function* connectionSamples(): Iterable<[Labels, number]> {
  for (const kind of CONNECTION_KINDS) yield [{ kind }, connectionCount(kind)];
}

/** Process-wide series: memory, CPU, descriptors, event-loop delay, Chromium's processes. */
async function runtime(
  out: Exposition,
  proc: ProcReader,
  browserPid: number | null,
): Promise<void> {
  const memory = Deno.memoryUsage();
  const cpu = process.cpuUsage();
  // Descriptors first, alone: the other readers open files of their own while they run.
  const open = await openFds(proc);
  const [max, browser] = await Promise.all([
    maxFds(proc),
    browserPid === null ? NO_TREE : processTree(proc, browserPid),
  ]);
  out
    .one("process_resident_memory_bytes", {
      type: "gauge",
      help: "Resident memory of the linkpeek process in bytes.",
      value: memory.rss,
    })
    .one("process_cpu_seconds_total", {
      type: "counter",
      help: "User and system CPU time of the linkpeek process in seconds.",
      value: (cpu.user + cpu.system) / 1e6,
    })
    .one("process_start_time_seconds", {
      type: "gauge",
      help: "Start time of the process since the Unix epoch in seconds.",
      value: Math.round(performance.timeOrigin) / 1000,
    })
    .one("deno_heap_used_bytes", {
      type: "gauge",
      help: "V8 heap in use in bytes.",
      value: memory.heapUsed,
    })
    .one("deno_heap_total_bytes", {
      type: "gauge",
      help: "V8 heap reserved in bytes.",
      value: memory.heapTotal,
    })
    .one("deno_external_memory_bytes", {
      type: "gauge",
      help: "Memory of objects outside the V8 heap (buffers) in bytes.",
      value: memory.external,
    })
    .histogram(
      "deno_event_loop_delay_seconds",
      "How late a 100 ms timer fired: time the event loop was busy with other work.",
      eventLoopDelay(),
    );
  if (open !== null) {
    out.one("process_open_fds", {
      type: "gauge",
      help: "Open file descriptors.",
      value: open,
    });
  }
  if (max !== null) {
    out.one("process_max_fds", {
      type: "gauge",
      help: "Maximum number of open file descriptors (soft limit).",
      value: max,
    });
  }
  if (browser !== null) {
    out
      .one("linkpeek_browser_processes", {
        type: "gauge",
        help: "Chromium processes: the browser and all its descendants (0 when not running).",
        value: browser.processes,
      })
      .one("linkpeek_browser_resident_memory_bytes", {
        type: "gauge",
        help: "Sum of the resident memory of Chromium's processes in bytes " +
          "(pages they share are counted once per process).",
        value: browser.residentBytes,
      })
      .one("linkpeek_browser_proportional_memory_bytes", {
        type: "gauge",
        help: "Sum of the proportional set size (PSS) of Chromium's processes in bytes: " +
          "shared pages split between them, what the browser costs the machine.",
        value: browser.proportionalBytes,
      });
  }
}

/** The service's counters, updated by requests and rendered on each scrape of /metrics. */
export class Metrics implements AsyncDisposable {
  /** Reads this process's and Chromium's figures on each scrape. */
  readonly #proc = new ProcReader();
  readonly #requests = new LabelledCounter();
  readonly #cacheLookups = new LabelledCounter();
  readonly #latency = new Histogram(BUCKETS);
  #bytes = 0;

  constructor() {
    eventLoopDelay(); // start sampling now, not at the first scrape
  }

  /** One API request answered. */
  request(labels: { plan: string; status: number; code: string }, seconds: number): void {
    this.#requests.add(`${labels.plan}|${labels.status}|${labels.code}`, () => ({ ...labels }));
    this.#latency.observe(seconds);
  }

  /** One response cache lookup and its result. */
  cache(status: string): void {
    this.#cacheLookups.add(status, () => ({ status }));
  }

  /** Body bytes read from a target. */
  fetchBytes(bytes: number): void {
    this.#bytes += bytes;
  }

  /** Every series in text exposition format 0.0.4. */
  async render({ browser }: { browser: BrowserStats }): Promise<string> {
    const hits = this.#cacheLookups.get("HIT") + this.#cacheLookups.get("STALE");
    const lookups = this.#cacheLookups.total();
    const out = new Exposition()
      .family("linkpeek_requests_total", {
        type: "counter",
        help: "API requests by plan, HTTP status and error code (empty for a success).",
        samples: this.#requests.samples(),
      })
      .histogram(
        "linkpeek_request_duration_seconds",
        "API request latency in seconds.",
        this.#latency,
      )
      .family("linkpeek_cache_lookups_total", {
        type: "counter",
        help: "Response cache lookups by result.",
        samples: this.#cacheLookups.samples(),
      })
      .one("linkpeek_cache_hit_ratio", {
        type: "gauge",
        help: "Hits (fresh or stale) over lookups since the start.",
        value: lookups ? hits / lookups : 0,
      })
      .one("linkpeek_fetch_bytes_total", {
        type: "counter",
        help: "Body bytes read from targets.",
        value: this.#bytes,
      })
      .family("linkpeek_fetch_connections_total", {
        type: "counter",
        help: "Connections of direct fetches: opened (new), kept-alive ones used again (reused), " +
          "and kept-alive ones the target closed or spoke on unasked, dropped while idle or " +
          "found by a request then sent on a new one (stale).",
        samples: connectionSamples(),
      })
      .family("linkpeek_guard_refusals_total", {
        type: "counter",
        help: "Targets the address guard refused, by kind of address and by stage " +
          "(a fetch's first hop, a redirect hop, the browser).",
        samples: refusalSamples(),
      })
      .one("linkpeek_browser_pages_in_use", {
        type: "gauge",
        help: "Browser pages serving a visit now.",
        value: browser.inUse,
      })
      .one("linkpeek_browser_queue_length", {
        type: "gauge",
        help: "Visits waiting for a browser page.",
        value: browser.queued,
      })
      .one("linkpeek_browser_contexts", {
        type: "gauge",
        help: "Incognito contexts open now, one per visit under way (0 when idle: none leaked).",
        value: browser.contexts,
      })
      .one("linkpeek_browser_pages_capacity", {
        type: "gauge",
        help: "Browser pages open at once at most (BROWSER_PAGES).",
        value: browser.maxPages,
      })
      .one("linkpeek_browser_queue_capacity", {
        type: "gauge",
        help: "Visits that may wait for a page (BROWSER_QUEUE); one more is EBUSY.",
        value: browser.maxQueue,
      })
      .one("linkpeek_browser_launches_total", {
        type: "counter",
        help: "Chromium launches, relaunches after a crash included.",
        value: browser.launches,
      });
    await runtime(out, this.#proc, browser.pid);
    return out.text();
  }

  async close(): Promise<void> {
    await this.#proc.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
