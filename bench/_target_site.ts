/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * A bench's target site on a thread of its own (a Worker): serving the pages is the target's
 * work, which runs on another machine in use, not on linkpeek's event loop. Sent `{ pages }`
 * (path -> HTML), it serves each path as UTF-8 HTML on a loopback port and posts `{ port }`.
 */
const encoder = new TextEncoder();

self.onmessage = (event: MessageEvent<{ pages: Record<string, string> }>) => {
  const bodies = new Map(
    Object.entries(event.data.pages).map(([path, html]) => [path, encoder.encode(html)]),
  );
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    const body = bodies.get(new URL(request.url).pathname);
    if (body === undefined) return new Response("not found", { status: 404 });
    return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  });
  self.postMessage({ port: server.addr.port });
};
