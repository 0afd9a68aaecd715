/**
 * imagePalette in a short-lived Worker: pure-JS decoding of a large JPEG takes seconds, which
 * must neither block the event loop nor multiply. Deno's worker.terminate() does not stop a
 * worker busy decoding, so a decode keeps its place until its worker has answered: at most
 * two run at once, sixteen wait (within their deadline), and an image beyond that gets no
 * palette (it is best effort: Busy is null here, not EBUSY).
 */
import type { Palette } from "./palette.ts";
import { AdmissionPool, Busy, type Permit } from "../util/admission.ts";

const WORKER_URL = new URL("./_palette_worker.ts", import.meta.url).href;
/** A worker silent this long past its caller's deadline is given up on (decodes are bounded). */
const GIVE_UP_MS = 30_000;

/** Decodes at once and waiting: each place is held until its worker is done. */
export function paletteAdmission(): AdmissionPool {
  return new AdmissionPool({ running: 2, waiting: 16 });
}

/** The pool of callers that bring none (the CLI, tests); the service brings its own. */
const shared = paletteAdmission();

/** Decodes holding a place now in the shared pool (their callers may have had their answer). */
export function paletteDecodes(): number {
  return shared.state().running;
}

/** Resolves once no decode holds a place in the shared pool (tests, shutdown). */
export function palettesSettled(): Promise<void> {
  return shared.settled();
}

/** The palette, or null when undecodable, busy, on timeout or on abort. Never rejects. */
export function imagePaletteAsync(
  bytes: Uint8Array,
  options: { signal?: AbortSignal; timeoutMs?: number; admission?: AdmissionPool } = {},
): Promise<Palette | null> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve(null);
  const timeoutMs = options.timeoutMs ?? 5000;
  const gaveUp = new AbortController();
  const outcome = (options.admission ?? shared).admit(gaveUp.signal);
  if (outcome instanceof Busy) return Promise.resolve(null);
  return new Promise((resolve) => {
    let answered = false;
    const answer = (result: Palette | null) => {
      if (answered) return;
      answered = true;
      clearTimeout(late);
      signal?.removeEventListener("abort", abort);
      gaveUp.abort(); // leaves the line if still in it
      resolve(result);
    };
    const abort = () => answer(null);
    const late = setTimeout(abort, timeoutMs);
    signal?.addEventListener("abort", abort, { once: true });
    if (outcome instanceof Promise) {
      outcome.then(
        (place) => answered ? place.release() : decode(bytes, place, answer, timeoutMs),
        () => answer(null),
      );
    } else decode(bytes, outcome, answer, timeoutMs);
  });
}

/** Runs one decode in its place; `done` hears its result (or null). */
function decode(
  bytes: Uint8Array,
  place: Permit,
  done: (result: Palette | null) => void,
  timeoutMs: number,
) {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_URL, { type: "module" });
  } catch {
    place.release();
    return done(null); // e.g. a compiled binary built without the worker module
  }
  // The place is freed only once the worker is done (or given up on), then handed on.
  const finished = (result: Palette | null) => {
    clearTimeout(stuck);
    worker.onmessage = worker.onerror = null;
    worker.terminate();
    place.release();
    done(result);
  };
  const stuck = setTimeout(() => finished(null), timeoutMs + GIVE_UP_MS);
  worker.onmessage = (event: MessageEvent<Palette | null>) => finished(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    finished(null);
  };
  worker.postMessage(bytes);
}
