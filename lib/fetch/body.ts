/**
 * Reads a response body through streaming decompression and stops at maxBytes of DECODED
 * data: a compression bomb or an endless page costs at most maxBytes plus one chunk.
 */
import zlib from "node:zlib";
import { pipeline, Readable, type Transform } from "node:stream";
import { concatBytes } from "../util/bytes.ts";

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

/** Collects chunks up to `max` bytes; returns true when more arrived than fit. */
async function collect(
  source: AsyncIterable<Uint8Array>,
  max: number,
  chunks: Uint8Array[],
): Promise<boolean> {
  let size = 0;
  for await (const chunk of source) {
    const room = max - size;
    if (chunk.byteLength > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      return true;
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return false;
}

/**
 * Decodes `raw` per `contentEncoding` (gzip, deflate, br, or a chain of up to three) and reads
 * at most maxBytes. Unknown codings and longer chains are returned as they are. The caller destroys the
 * connection afterwards when the result is truncated. Corrupt compressed data yields what decoded
 * before it; an answer that could not be read to its end (the deadline, a reset, a body shorter
 * than its length) throws, as it does uncompressed.
 */
export async function readBody(
  raw: AsyncIterable<Uint8Array>,
  options: { contentEncoding: string | undefined; maxBytes: number },
): Promise<BodyResult> {
  const codings = (options.contentEncoding ?? "").toLowerCase().split(",")
    .map((s) => s.trim()).filter((s) => s && s !== "identity");
  const chunks: Uint8Array[] = [];
  if (
    codings.length === 0 || codings.length > MAX_CODINGS || codings.some((c) => !KNOWN.has(c))
  ) {
    const truncated = await collect(raw, options.maxBytes, chunks);
    return { body: concatBytes(chunks), truncated, decoded: false };
  }
  // Peek the first chunk (the deflate flavour depends on it) without ending the stream.
  const rawChunks = raw[Symbol.asyncIterator]();
  const first = await rawChunks.next();
  if (first.done) return { body: new Uint8Array(0), truncated: false, decoded: true };
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
    const truncated = await collect(source, options.maxBytes, chunks);
    return { body: concatBytes(chunks), truncated, decoded: true };
  } catch (error) {
    // The answer was not read to its end: the same failure as an uncompressed body's.
    if (unread.failed) throw unread.error;
    // Corrupt compressed data: keep what decoded cleanly, as a browser would show it.
    if (chunks.length > 0) return { body: concatBytes(chunks), truncated: true, decoded: true };
    const message = `corrupt compressed body (${(error as Error)?.message ?? error})`;
    throw Object.assign(new Error(message, { cause: error }), { code: CORRUPT_BODY });
  } finally {
    source.destroy();
  }
}
