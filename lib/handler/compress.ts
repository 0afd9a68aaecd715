/**
 * gzip for text answers when the client accepts it (Deno.serve sends bodies as they are).
 * Small bodies are not worth the CPU; images, PDFs and media are compressed already.
 */
import { gzipSync } from "node:zlib";
import { BoundedMap } from "../util/bounded_map.ts";

const COMPRESSIBLE = /^(application\/(json|javascript|xml)|text\/|image\/svg\+xml)/i;
/** Bodies shorter than this are sent as they are. */
export const GZIP_MIN_BYTES = 1024;

/** Clients send a handful of distinct Accept-Encoding values: each is read once. */
const accepted = new BoundedMap<string, boolean>(64);

export function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding") ?? "";
  let verdict = accepted.get(header);
  if (verdict === undefined) {
    verdict = header.split(",").some((part) => {
      const [coding, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return coding?.trim().toLowerCase() === "gzip" && (!q || Number(q.trim().slice(2)) > 0);
    });
    accepted.set(header, verdict);
  }
  return verdict;
}

export function gzip(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(bytes, { level: 6 }));
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
  if (length !== null && Number(length) < GZIP_MIN_BYTES) return response;
  if (headers.has("content-encoding") || !COMPRESSIBLE.test(headers.get("content-type") ?? "")) {
    return response;
  }
  const vary = headers.get("vary");
  if (!vary || !/accept-encoding/i.test(vary)) {
    headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
  return acceptsGzip(request) ? gzipped(response) : response;
}

async function gzipped(response: Response): Promise<Response> {
  const headers = response.headers;
  // Text answers are built in memory, so reading them back costs nothing worth noting.
  const bytes = new Uint8Array(await response.arrayBuffer());
  const init = { status: response.status, headers };
  if (bytes.length < GZIP_MIN_BYTES) return new Response(bytes, init);
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  return new Response(gzip(bytes), init);
}
