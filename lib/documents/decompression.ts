/**
 * The document workers' DecompressionStream, bounded. pdf.js inflates a whole stream through the
 * global DecompressionStream into one buffer, outside the V8 heap (its worker's heap cap does not
 * count it): a 1 MB PDF inflated 1 GB of content in the worker, 5 MB of one would have been 5 GB
 * in the process. The bounded stream feeds the native one small pieces (one piece gives at most
 * ~1000 times its size) and ends its output once a stream passes MAX_INFLATED_BYTES.
 *
 * It ends the output rather than failing it: on a failed decompression pdf.js falls back to its
 * own inflater, whose buffer grows as far again. The cut is counted (streamsCut), and the PDF
 * converter refuses a document during whose reading a stream was cut.
 */

/** Bytes one compressed stream may inflate to (as one zip entry may). */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;
/** Compressed bytes handed to the native decompressor at a time. */
const PIECE = 4096;

let cuts = 0;

/** Streams cut at MAX_INFLATED_BYTES on this thread so far. */
export function streamsCut(): number {
  return cuts;
}

const Native = globalThis.DecompressionStream;

export class BoundedDecompressionStream {
  readonly writable: WritableStream<BufferSource>;
  readonly readable: ReadableStream<Uint8Array>;

  constructor(format: CompressionFormat) {
    const native = new Native(format);
    const pieces = new TransformStream<BufferSource, BufferSource>({
      transform(chunk, controller) {
        const bytes = ArrayBuffer.isView(chunk)
          ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : new Uint8Array(chunk);
        for (let at = 0; at < bytes.length; at += PIECE) {
          controller.enqueue(bytes.subarray(at, at + PIECE));
        }
      },
    });
    pieces.readable.pipeTo(native.writable).catch(() => {});
    this.writable = pieces.writable;
    const reader = native.readable.getReader();
    let inflated = 0;
    this.readable = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        inflated += value.byteLength;
        if (inflated > MAX_INFLATED_BYTES) {
          cuts++;
          controller.close();
          await reader.cancel("inflates past its bound").catch(() => {});
          return;
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    }, { highWaterMark: 0 });
  }
}

/** Puts the bounded stream where pdf.js looks for DecompressionStream, on this thread. */
export function boundDecompression(): void {
  globalThis.DecompressionStream = BoundedDecompressionStream as typeof DecompressionStream;
}
