/**
 * Brotli or gzip for text answers, whichever the client prefers (Deno.serve sends bodies as they
 * are). Microlink answers br and gzip; on a tie br wins, as it is smaller. Small bodies are not
 * worth the CPU; images, PDFs and media are compressed already.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { BoundedMap } from "./bounded_map.ts";

const COMPRESSIBLE = /^(application\/(json|javascript|xml)|text\/|image\/svg\+xml)/i;
/** Bodies shorter than this are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Nor are longer ones: compression runs on the event loop (Deno's zlib blocks it, callback or
 * stream), up to 70 ms a MB for gzip -6 on the worst text, so a body past this is
 * sent as it is rather than stall every other request (page code or a custom rule can make a
 * few MB).
 */
export const COMPRESS_MAX_BYTES = 512 * 1024;

/** Is a body of `size` bytes compressed when the client takes it? */
export function worthCompressing(size: number): boolean {
  return size >= COMPRESS_MIN_BYTES && size <= COMPRESS_MAX_BYTES;
}

/** A content coding linkpeek sends. */
export type Encoding = "br" | "gzip";

/** Clients send a handful of distinct Accept-Encoding values: each is read once. */
const preferred = new BoundedMap<string, Encoding | null>(64);

/** The coding the client prefers among br and gzip (q-values honoured, q=0 refuses), or null. */
export function preferredEncoding(request: Request): Encoding | null {
  const header = request.headers.get("accept-encoding") ?? "";
  let verdict = preferred.get(header);
  if (verdict === undefined) {
    verdict = choose(header);
    preferred.set(header, verdict);
  }
  return verdict;
}

function choose(header: string): Encoding | null {
  const weights: Partial<Record<Encoding | "*", number>> = {};
  for (const part of header.split(",")) {
    const [coding = "", ...params] = part.trim().split(";");
    const name = coding.trim().toLowerCase();
    if (name !== "br" && name !== "gzip" && name !== "*") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights[name] = Number.isFinite(weight) ? weight : 0;
  }
  const br = weights.br ?? weights["*"] ?? 0;
  const gzip = weights.gzip ?? weights["*"] ?? 0;
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? "br" : "gzip";
}

/**
 * `bytes` in `encoding`. Brotli at quality 1: on real answers (Markdown, fields) 6-14% larger
 * than quality 4's for a half to a third of the CPU (0.07 against 0.15 ms for 16 KB of JSON,
 * 0.6 against 1.9 ms for 100 KB), and both ends of a request on a fast network pay for that CPU,
 * not for the bytes. Quality 11 costs a hundred times more for a few percent; quality 5 took
 * ~700 ms a MB on text of random letters, which a page can hand over in any field.
 * The window is just big enough for the body (brotliWindowBits), which compresses as well.
 */
export function encode(bytes: Uint8Array, encoding: Encoding): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    encoding === "br"
      ? brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 1,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(bytes.length),
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
      : gzipSync(bytes, { level: 6 }),
  );
}

/**
 * The smallest Brotli window that holds `size` bytes (a window is 2^bits - 16 bytes), but not
 * under 18 bits, the least quality 1 works with (the encoder raises anything smaller to it).
 * The stream announces its window and a decoder sets aside that much: the default 22 bits made
 * every client allocate 4 MB for a 20 KB answer (Deno's fetch reads such an answer in 0.21 ms
 * with an 18-bit window, 0.27 ms with 22).
 */
export function brotliWindowBits(size: number): number {
  let bits = 18;
  while (bits < 24 && (1 << bits) - 16 < size) bits++;
  return bits;
}

/**
 * The answer itself when there is nothing to compress (no await on the hot path). The body is
 * never touched here: its getter turns a string body into a stream, which takes the answer off
 * Deno.serve's fast path.
 */
export function compress(request: Request, response: Response): Response | Promise<Response> {
  if (request.method === "HEAD" || response.status === 204 || response.status === 304) {
    return response;
  }
  const headers = response.headers;
  // A small answer is the same whatever the client accepts: no Vary needed, nothing to do.
  const length = headers.get("content-length");
  if (length !== null && !worthCompressing(Number(length))) return response;
  if (headers.has("content-encoding") || !COMPRESSIBLE.test(headers.get("content-type") ?? "")) {
    return response;
  }
  const vary = headers.get("vary");
  if (!vary || !/accept-encoding/i.test(vary)) {
    headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
  const encoding = preferredEncoding(request);
  return encoding ? encoded(response, encoding) : response;
}

async function encoded(response: Response, encoding: Encoding): Promise<Response> {
  const headers = response.headers;
  // Text answers are built in memory, so reading them back costs nothing worth noting.
  const bytes = new Uint8Array(await response.arrayBuffer());
  const init = { status: response.status, headers };
  if (!worthCompressing(bytes.length)) return new Response(bytes, init);
  headers.set("content-encoding", encoding);
  headers.delete("content-length");
  return new Response(encode(bytes, encoding), init);
}
