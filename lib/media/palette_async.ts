/**
 * imagePalette in a short-lived Worker: pure-JS decoding of a large JPEG takes seconds, which
 * must neither block the event loop nor multiply. Deno's worker.terminate() does not stop a
 * worker busy decoding, so a decode keeps its place until its worker has answered: at most
 * MAX_DECODING run at once, and an image beyond that gets no palette (it is best effort).
 */
import type { Palette } from "./palette.ts";

const WORKER_URL = new URL("./_palette_worker.ts", import.meta.url).href;
const MAX_DECODING = 2;
/** A worker silent this long past its caller's deadline is given up on (decodes are bounded). */
const GIVE_UP_MS = 30_000;

/** Each running decode, settled once its worker is done. */
const places = new Set<Promise<void>>();

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
  if (signal?.aborted || places.size >= MAX_DECODING) return Promise.resolve(null);
  let worker: Worker;
  try {
    worker = new Worker(WORKER_URL, { type: "module" });
  } catch {
    return Promise.resolve(null); // e.g. a compiled binary built without the worker module
  }
  let free!: () => void;
  const place = new Promise<void>((resolve) => free = resolve);
  places.add(place);
  place.then(() => places.delete(place));
  return new Promise((resolve) => {
    const timeoutMs = options.timeoutMs ?? 5000;
    let answered = false;
    const answer = (result: Palette | null) => {
      if (answered) return;
      answered = true;
      clearTimeout(late);
      signal?.removeEventListener("abort", abort);
      resolve(result);
    };
    // The place is freed only once the worker is done (or given up on).
    const finished = (result: Palette | null) => {
      clearTimeout(stuck);
      worker.onmessage = worker.onerror = null;
      worker.terminate();
      places.delete(place);
      free();
      answer(result);
    };
    const abort = () => answer(null);
    const late = setTimeout(abort, timeoutMs);
    const stuck = setTimeout(() => finished(null), timeoutMs + GIVE_UP_MS);
    signal?.addEventListener("abort", abort, { once: true });
    worker.onmessage = (event: MessageEvent<Palette | null>) => finished(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finished(null);
    };
    worker.postMessage(bytes);
  });
}
