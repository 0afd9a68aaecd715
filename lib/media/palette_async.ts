/**
 * imagePalette in a short-lived Worker: pure-JS decoding of a large JPEG takes seconds, which
 * must neither block the event loop nor multiply. Deno's worker.terminate() does not stop a
 * worker busy decoding, so a decode keeps its place until its worker has answered: at most
 * MAX_DECODING run at once, MAX_WAITING wait (within their deadline), and an image beyond that
 * gets no palette (it is best effort).
 */
import type { Palette } from "./palette.ts";

const WORKER_URL = new URL("./_palette_worker.ts", import.meta.url).href;
const MAX_DECODING = 2;
const MAX_WAITING = 16;
/** A worker silent this long past its caller's deadline is given up on (decodes are bounded). */
const GIVE_UP_MS = 30_000;

/** Each running decode, settled once its worker is done. */
const places = new Set<Promise<void>>();
/** Callers waiting for a place. */
const waiting: (() => void)[] = [];

/** Decodes holding a place now (their callers may have had their answer already). */
export function paletteDecodes(): number {
  return places.size;
}

/** Resolves once no decode holds a place (tests, shutdown). */
export async function palettesSettled(): Promise<void> {
  while (places.size) await Promise.all(places);
}

/** The palette, or null when undecodable, busy, on timeout or on abort. Never rejects. */
export function imagePaletteAsync(
  bytes: Uint8Array,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Palette | null> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve(null);
  if (places.size >= MAX_DECODING && waiting.length >= MAX_WAITING) return Promise.resolve(null);
  return new Promise((resolve) => {
    let answered = false;
    let started = false;
    const answer = (result: Palette | null) => {
      if (answered) return;
      answered = true;
      clearTimeout(late);
      signal?.removeEventListener("abort", abort);
      if (!started) waiting.splice(waiting.indexOf(start), 1);
      resolve(result);
    };
    const abort = () => answer(null);
    const late = setTimeout(abort, options.timeoutMs ?? 5000);
    signal?.addEventListener("abort", abort, { once: true });
    const start = () => {
      started = true;
      decode(bytes, (result) => answer(result), options.timeoutMs ?? 5000);
    };
    if (places.size < MAX_DECODING) start();
    else waiting.push(start);
  });
}

/** Runs one decode in its own place; `done` hears its result (or null). */
function decode(bytes: Uint8Array, done: (result: Palette | null) => void, timeoutMs: number) {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_URL, { type: "module" });
  } catch {
    return done(null); // e.g. a compiled binary built without the worker module
  }
  let free!: () => void;
  const place = new Promise<void>((resolve) => free = resolve);
  places.add(place);
  // The place is freed only once the worker is done (or given up on), then handed on.
  const finished = (result: Palette | null) => {
    clearTimeout(stuck);
    worker.onmessage = worker.onerror = null;
    worker.terminate();
    places.delete(place);
    free();
    done(result);
    waiting.shift()?.();
  };
  const stuck = setTimeout(() => finished(null), timeoutMs + GIVE_UP_MS);
  worker.onmessage = (event: MessageEvent<Palette | null>) => finished(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    finished(null);
  };
  worker.postMessage(bytes);
}
