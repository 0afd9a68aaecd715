/**
 * `insights.technologies`: which technologies a page uses (Wappalyzer rules), in one
 * long-lived Worker started on first use: the rules take ~300 ms to load and the patterns
 * ~100-300 ms to run, which must not stall other requests. Jobs are admitted one at a time
 * (an AdmissionPool); past MAX_WAITING waiting ones a request gets EBUSY. A request that ends while its job runs takes
 * the Worker with it (the next job starts a new one); an idle Worker is ended after a minute.
 */
import { ApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { AdmissionPool, type Permit } from "../util/admission.ts";
import type { DetectInput, Technology } from "./wappalyzer.ts";

export type { DetectInput, Technology } from "./wappalyzer.ts";

const WORKER_URL = new URL("./_technologies_worker.ts", import.meta.url).href;
const MAX_WAITING = 16;
const IDLE_MS = 60_000;

type Answer = { ok: true; technologies: Technology[] } | { ok: false; message: string };

interface Job {
  input: DetectInput;
  signal: AbortSignal;
  resolve: (technologies: Technology[]) => void;
  reject: (error: unknown) => void;
  place: Permit;
}

export interface TechnologyDetector extends AsyncDisposable {
  detect(input: DetectInput, options: { signal: AbortSignal }): Promise<Technology[]>;
  /** Admission of jobs: one at a time, MAX_WAITING in line. */
  readonly admission: AdmissionPool;
  close(): void;
}

export function createTechnologyDetector(): TechnologyDetector {
  return new TechnologyWorker();
}

class TechnologyWorker implements TechnologyDetector {
  readonly admission = new AdmissionPool({
    running: 1,
    waiting: MAX_WAITING,
    busyMessage: () => "The technology detector is saturated; retry later.",
    closedError: () => new ApiError("EBROWSER", "The service is closing."),
  });
  #worker: Worker | null = null;
  #current: Job | null = null;
  #idle: ReturnType<typeof setTimeout> | undefined;
  /** Stops the running job when its request ends (bound once, so it can be removed). */
  readonly #onAbort = (event: Event) => this.#aborted(event.target as AbortSignal);

  async detect(input: DetectInput, { signal }: { signal: AbortSignal }): Promise<Technology[]> {
    signal.throwIfAborted();
    const place = await this.admission.enter(signal);
    return await new Promise<Technology[]>((resolve, reject) => {
      if (signal.aborted) {
        place.release();
        return reject(signal.reason);
      }
      clearTimeout(this.#idle);
      this.#current = { input, signal, resolve, reject, place };
      signal.addEventListener("abort", this.#onAbort, { once: true });
      (this.#worker ??= this.#start()).postMessage(input);
    });
  }

  close(): void {
    // The line is refused first, so that no waiter is handed the running job's place.
    void this.admission.close();
    const job = this.#current;
    if (job) {
      this.#done(job);
      job.reject(new ApiError("EBROWSER", "The service is closing."));
    }
    clearTimeout(this.#idle);
    this.#stopWorker();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return this.admission.settled();
  }

  #stopWorker(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  /** The running job is over: its place goes to the next in line, else the Worker idles. */
  #done(job: Job): void {
    this.#current = null;
    job.signal.removeEventListener("abort", this.#onAbort);
    job.place.release();
    if (this.admission.state().running === 0) {
      clearTimeout(this.#idle);
      this.#idle = setTimeout(() => this.#stopWorker(), IDLE_MS);
      Deno.unrefTimer(this.#idle);
    }
  }

  #settle(answer: Answer | Error): void {
    const job = this.#current;
    if (!job) return;
    this.#done(job);
    if (answer instanceof Error) job.reject(answer);
    else if (answer.ok) job.resolve(answer.technologies);
    else {
      log.warn("technology detection failed", { error: answer.message });
      job.reject(
        new ApiError("EFATAL", `Detecting the technologies of "${job.input.url}" failed.`),
      );
    }
  }

  #aborted(signal: AbortSignal): void {
    const job = this.#current;
    if (job?.signal !== signal) return;
    this.#stopWorker(); // the only way to stop a pattern run mid-way
    this.#done(job);
    job.reject(signal.reason);
  }

  #start(): Worker {
    const created = new Worker(WORKER_URL, { type: "module" });
    created.onmessage = (event: MessageEvent<Answer>) => this.#settle(event.data);
    created.onerror = (event) => {
      event.preventDefault();
      if (this.#worker === created) this.#worker = null;
      created.terminate();
      this.#settle(new ApiError("EFATAL", "The technology detector failed."));
    };
    return created;
  }
}
