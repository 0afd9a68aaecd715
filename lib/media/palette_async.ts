/**
 * imagePalette in a short-lived Worker: pure-JS decoding of a large JPEG takes seconds, which
 * must neither block the event loop nor outlive the request's deadline.
 */
import type { Palette } from "./palette.ts";

const WORKER_URL = new URL("./_palette_worker.ts", import.meta.url).href;

/** The palette, or null when undecodable, on timeout or on abort. Never rejects. */
export function imagePaletteAsync(
  bytes: Uint8Array,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Palette | null> {
  if (options.signal?.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL, { type: "module" });
    } catch {
      return resolve(null); // e.g. a compiled binary built without the worker module
    }
    const finish = (result: Palette | null) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", abort);
      worker.terminate();
      resolve(result);
    };
    const abort = () => finish(null);
    const timer = setTimeout(abort, options.timeoutMs ?? 5000);
    options.signal?.addEventListener("abort", abort, { once: true });
    worker.onmessage = (event: MessageEvent<Palette | null>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish(null);
    };
    worker.postMessage(bytes);
  });
}
