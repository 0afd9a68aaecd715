/**
 * `embed=iframe.html` as Microlink serves it: the provider's embed as an HTML page, with the
 * scripts split out of it put back, under a sandbox that gives those scripts an opaque origin.
 */
import type { Iframe, IframeScript } from "../oembed/mod.ts";
import type { HeaderMap } from "./respond.ts";
import { SCRIPTED_SANDBOX_CSP } from "./untrusted_body.ts";

/** The page for `iframe`: its html, then one `<script>` per split-out script. */
export function iframeDocument(iframe: Iframe): string {
  const scripts = iframe.scripts.map((item) => {
    // Answers cached before scripts became objects list bare URLs.
    const script = typeof item === "string" ? { src: item as string } as IframeScript : item;
    let attrs = ` src="${escapeAttr(script.src)}"`;
    if (script.async) attrs += " async";
    if (script.defer) attrs += " defer";
    if (script.charset) attrs += ` charset="${escapeAttr(script.charset)}"`;
    if (script.type) attrs += ` type="${escapeAttr(script.type)}"`;
    return `<script${attrs}></script>`;
  });
  return `<!doctype html>\n<meta charset="utf-8">\n${iframe.html}\n${scripts.join("\n")}\n`;
}

export function iframeDocumentResponse(iframe: Iframe, headers: HeaderMap): Response {
  headers["content-type"] = "text/html; charset=utf-8";
  headers["content-security-policy"] = SCRIPTED_SANDBOX_CSP;
  headers["x-content-type-options"] = "nosniff";
  return new Response(iframeDocument(iframe), { headers });
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
