/**
 * Reads a response body through streaming decompression and stops at maxBytes of DECODED
 * data: a compression bomb or an endless page costs at most maxBytes plus one chunk.
 */
import zlib from "node:zlib";
import { finished, pipeline, Readable, type Transform } from "node:stream";

export interface BodyResult {
  body: Uint8Array;
  truncated: boolean;
  /** Content-codings that were undone (so callers can drop content-encoding). */
  decoded: boolean;
}

const KNOWN = new Set(["gzip", "x-gzip", "deflate", "br"]);
/** The code of the error thrown for compressed data that does not decode. */
export const CORRUPT_BODY = "ERR_CORRUPT_BODY";
/**
 * Longest chain of codings undone. Each is a decoder with its own window (brotli's up to 16 MB),
 * and a target names as many as its headers hold: a longer chain is returned as sent.
 */
const MAX_CODINGS = 3;

/** Whether readBody undoes every one of `codings` (known, and not too many). */
export function decodable(codings: readonly string[]): boolean {
  return codings.length <= MAX_CODINGS && codings.every((coding) => KNOWN.has(coding));
}

/** A zlib-wrapped deflate stream starts with a CMF/FLG pair whose 16-bit value is 0 mod 31. */
function isZlibHeader(first: Uint8Array): boolean {
  return first.length >= 2 && (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | first[1]!) % 31 === 0;
}

function decoderFor(coding: string, first: Uint8Array): Transform | null {
  // Lenient flushes: a target that cuts its stream short still yields what was sent.
  const opts = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip(opts);
    case "deflate":
      // Some servers send raw deflate under this name.
      return isZlibHeader(first) ? zlib.createInflate(opts) : zlib.createInflateRaw(opts);
    case "br":
      return zlib.createBrotliDecompress({
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return null;
  }
}

/**
 * Body bytes up to a cap, in one buffer grown by doubling. Kept as the chunks they came in, a
 * body read a byte at a time (a target writing one byte per packet) cost an array per byte:
 * 2 MB of body held 260 MB of heap.
 */
class CappedBytes {
  #buffer = new Uint8Array(0);
  #size = 0;

  constructor(readonly max: number) {}

  get size(): number {
    return this.#size;
  }

  /** Adds what fits of `chunk`; returns true when it did not all fit. */
  add(chunk: Uint8Array): boolean {
    const taken = chunk.subarray(0, this.max - this.#size);
    const needed = this.#size + taken.byteLength;
    if (needed > this.#buffer.byteLength) {
      const grown = new Uint8Array(
        Math.min(this.max, Math.max(needed, 2 * this.#buffer.byteLength)),
      );
      grown.set(this.#buffer.subarray(0, this.#size));
      this.#buffer = grown;
    }
    this.#buffer.set(taken, this.#size);
    this.#size = needed;
    return taken.byteLength < chunk.byteLength;
  }

  /** The bytes gathered, in a buffer of their own size. */
  bytes(): Uint8Array {
    const bytes = this.#buffer.subarray(0, this.#size);
    return bytes.byteLength === this.#buffer.byteLength ? bytes : bytes.slice();
  }
}

/** Gathers `source` into `sink` until it ends or overflows; returns true when it overflowed. */
async function collect(source: AsyncIterable<Uint8Array>, sink: CappedBytes): Promise<boolean> {
  for await (const chunk of source) {
    if (sink.add(chunk)) return true;
  }
  return false;
}

/**
 * Gathers a decoder's output into `sink` as it is produced; true when it overflowed. Not by
 * iteration: a decoder's error discards what it has decoded but not yet handed to an iterator,
 * so gzip followed by stray bytes (read as a next member that fails) lost the page it held.
 */
function gather(decoded: Readable, sink: CappedBytes): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let cut = false;
    decoded.on("data", (chunk: Uint8Array) => {
      if (cut || !sink.add(chunk)) return;
      cut = true;
      resolve(true);
      decoded.destroy();
    });
    finished(decoded, (error) => error ? reject(error) : resolve(false));
  });
}

/**
 * Decodes `raw` per `transferCodings` then `contentEncoding` (gzip, deflate, br: a chain of up
 * to three in all) and reads at most maxBytes. The transfer codings are known and few (the
 * answer parser refuses others); content codings it cannot undo along with them are returned as
 * they are. The caller destroys the connection afterwards when the result is truncated. Corrupt
 * compressed data yields what decoded before it; an answer that could not be read to its end (the
 * deadline, a reset, a body shorter than its length) throws, as it does uncompressed.
 */
export async function readBody(
  raw: AsyncIterable<Uint8Array>,
  options: {
    contentEncoding: string | undefined;
    /** Transfer codings inside the chunks, in the order applied (see transferFraming). */
    transferCodings?: readonly string[];
    maxBytes: number;
  },
): Promise<BodyResult> {
  const content = (options.contentEncoding ?? "").toLowerCase().split(",")
    .map((s) => s.trim()).filter((s) => s && s !== "identity");
  const transfer = options.transferCodings ?? [];
  // Content codings are applied first, transfer codings over them.
  const decoded = content.length > 0 && decodable([...content, ...transfer]);
  const codings = decoded ? [...content, ...transfer] : [...transfer];
  const sink = new CappedBytes(options.maxBytes);
  if (codings.length === 0) {
    const truncated = await collect(raw, sink);
    return { body: sink.bytes(), truncated, decoded };
  }
  // Peek the first chunk (the deflate flavour depends on it) without ending the stream.
  const rawChunks = raw[Symbol.asyncIterator]();
  const first = await rawChunks.next();
  if (first.done) return { body: new Uint8Array(0), truncated: false, decoded };
  const head = first.value;
  const decoders: Transform[] = [];
  // Codings are listed in the order applied; undo them last first.
  for (const coding of codings.reverse()) {
    const decoder = decoderFor(coding, head);
    if (decoder) decoders.push(decoder);
  }
  /** Set when reading the answer failed (the deadline, a reset, a cut body), not decoding it. */
  const unread: { failed: boolean; error?: unknown } = { failed: false };
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield head;
    for (;;) {
      const next = await rawChunks.next().catch((error) => {
        Object.assign(unread, { failed: true, error });
        throw error;
      });
      if (next.done) return;
      yield next.value;
    }
  }
  // pipeline() tears every stage down when we stop reading the last one.
  const stages = [Readable.from(replay()), ...decoders] as unknown as [Readable, Transform];
  const source = pipeline(...stages, () => {}) as unknown as Readable;
  try {
    const truncated = await gather(source, sink);
    return { body: sink.bytes(), truncated, decoded };
  } catch (error) {
    // The answer was not read to its end: the same failure as an uncompressed body's.
    if (unread.failed) throw unread.error;
    // Corrupt compressed data: keep what decoded cleanly, as a browser would show it.
    if (sink.size > 0) return { body: sink.bytes(), truncated: true, decoded };
    const message = `corrupt compressed body (${(error as Error)?.message ?? error})`;
    throw Object.assign(new Error(message, { cause: error }), { code: CORRUPT_BODY });
  } finally {
    source.destroy();
  }
}
