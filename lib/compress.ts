/**
 * gzip for text answers when the client accepts it (Deno.serve sends bodies as they are).
 * Small bodies are not worth the CPU; images, PDFs and media are compressed already.
 */
import { gzipSync } from "node:zlib";

const COMPRESSIBLE = /^(application\/(json|javascript|xml)|text\/|image\/svg\+xml)/i;
const MIN_BYTES = 1024;

function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding") ?? "";
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().split(";");
    const q = params.find((p) => p.trim().startsWith("q="));
    return coding?.trim().toLowerCase() === "gzip" && (!q || Number(q.trim().slice(2)) > 0);
  });
}

/** The answer itself when there is nothing to compress (no await on the hot path). */
export function compress(request: Request, response: Response): Response | Promise<Response> {
  const headers = response.headers;
  const vary = headers.get("vary");
  if (!vary || !/accept-encoding/i.test(vary)) {
    headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  }
  const length = headers.get("content-length");
  if (
    !response.body || request.method === "HEAD" || headers.has("content-encoding") ||
    (length !== null && Number(length) < MIN_BYTES) ||
    !COMPRESSIBLE.test(headers.get("content-type") ?? "") || !acceptsGzip(request)
  ) {
    return response;
  }
  return gzipped(response);
}

async function gzipped(response: Response): Promise<Response> {
  const headers = response.headers;
  // Text answers are built in memory, so reading them back costs nothing worth noting.
  const bytes = new Uint8Array(await response.arrayBuffer());
  const init = { status: response.status, headers };
  if (bytes.length < MIN_BYTES) return new Response(bytes, init);
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  return new Response(new Uint8Array(gzipSync(bytes, { level: 6 })), init);
}
