/**
 * The document workers' Uint8Array constructor, bounded. pdf.js decodes some streams in its own
 * code (a predictor, LZW, run-length), growing one buffer, outside the V8 heap, as far as the
 * stream goes, in one synchronous run that no budget check interrupts; and Deno's terminate()
 * does not stop a busy thread: 1 MB of such a PDF held a thread past its deadline, replaced but
 * running on, its memory growing by 50 MB a second. A buffer past MAX_BUFFER_BYTES is refused
 * (a RangeError thrown where pdf.js asks for it) and counted (buffersRefused); the PDF converter
 * refuses a document during whose reading one was.
 */

/** Bytes one new Uint8Array may hold in a document worker (a zip entry stops at 32 MB). */
export const MAX_BUFFER_BYTES = 64 * 1024 * 1024;

let refused = 0;
let bounded = false;

/** Buffers refused on this thread so far. */
export function buffersRefused(): number {
  return refused;
}

/**
 * Puts the bounded constructor where code looks up `Uint8Array`, on this thread. A Proxy of the
 * native one: `instanceof`, its prototype and its static methods are the native ones.
 */
export function boundBuffers(): void {
  if (bounded) return;
  bounded = true;
  globalThis.Uint8Array = new Proxy(Uint8Array, {
    construct(target, args, newTarget) {
      const length = args[0];
      if (typeof length === "number" && length > MAX_BUFFER_BYTES) {
        refused++;
        throw new RangeError(`a buffer of ${length} bytes is past its bound`);
      }
      return Reflect.construct(target, args, newTarget);
    },
  });
}
