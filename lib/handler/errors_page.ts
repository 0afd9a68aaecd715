/**
 * /errors: every error code with its HTTP status and meaning, one anchor each (the code in lower
 * case), made from the ERRORS table: what an error answer's `more` links to, as Microlink's link
 * to its error-codes page.
 */
import { escapeUTF8 } from "entities";
import { ERRORS } from "../util/errors.ts";

let page: string | null = null;

function render(): string {
  const rows = Object.entries(ERRORS).map(([code, { status, when }]) =>
    `<tr id="${code.toLowerCase()}"><td><a href="#${code.toLowerCase()}"><code>${code}</code></a>` +
    `</td><td>${status}</td><td>${escapeUTF8(when)}</td></tr>`
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>linkpeek error codes</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse}td,th{padding:.4rem .8rem;border-bottom:1px solid #ddd;text-align:left}
tr:target{background:#fff3b0}</style></head><body>
<h1>Error codes</h1>
<p>An answer whose <code>status</code> is <code>fail</code> (4xx) or <code>error</code> (5xx)
carries <code>code</code>, <code>message</code>, <code>id</code> (the request id, also in
<code>x-request-id</code> and the service's log) and <code>more</code> (a link to its row here).</p>
<table><thead><tr><th>code</th><th>HTTP</th><th>when</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table></body></html>`;
}

/** The page, made once. */
export function errorsPage(): Response {
  page ??= render();
  return new Response(page, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "public, max-age=3600",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
