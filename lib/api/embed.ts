import { ApiError } from "../util/errors.ts";
import type { Services } from "../services/mod.ts";
import { assetDisposition, assetIdOf } from "./assets.ts";
import { iframeDocumentResponse } from "./embed_document.ts";
import { fieldAt } from "./field_path.ts";
import type { Iframe } from "../oembed/mod.ts";
import type { HeaderMap } from "./respond.ts";
import { SANDBOX_CSP, untrustedBodyHeaders } from "./untrusted_body.ts";

/** `embed=<field>`: that field's content as the body instead of JSON. */
export async function embedResponse(
  services: Services,
  options: { data: Record<string, unknown>; path: string; signal: AbortSignal; headers: HeaderMap },
): Promise<Response> {
  const { data, path, signal, headers } = options;
  const value = fieldAt(data, path);
  if (value === null || value === undefined) {
    throw new ApiError("ENOTFOUND", `The field \`${path}\` is empty for this URL.`);
  }
  if (path === "iframe.html") {
    return iframeDocumentResponse(data.iframe as Iframe, headers);
  }
  if (typeof value === "object") {
    // Text and JSON are the page's own words: shown as text, never run as linkpeek's origin.
    headers["content-security-policy"] = SANDBOX_CSP;
    headers["content-type"] = "application/json; charset=utf-8";
    return new Response(JSON.stringify(value), { headers });
  }
  const text = String(value);
  const isUrlField = path === "url" || path.endsWith(".url");
  if (!isUrlField) {
    headers["content-security-policy"] = SANDBOX_CSP;
    headers["content-type"] = `${
      path === "markdown" ? "text/markdown" : "text/plain"
    }; charset=utf-8`;
    return new Response(text, { headers });
  }
  const { publicUrl } = services.config;
  const id = text.startsWith(publicUrl) ? assetIdOf(text.slice(publicUrl.length)) : null;
  if (id) {
    const asset = await services.store.getAsset(id);
    if (!asset) throw new ApiError("ENOTFOUND", `The asset for \`${path}\` has expired.`);
    Object.assign(headers, assetDisposition(asset));
    Object.assign(headers, untrustedBodyHeaders(asset.bytes));
    if (asset.private) headers["cache-control"] = "private, max-age=86400";
    return new Response(asset.bytes as Uint8Array<ArrayBuffer>, { headers });
  }
  const result = await services.fetcher.fetch(text, { signal });
  if (result.statusCode < 200 || result.statusCode > 299) {
    throw new ApiError(
      "ENOTFOUND",
      `The field \`${path}\` points at ${text}, which answered ${result.statusCode}.`,
    );
  }
  Object.assign(headers, untrustedBodyHeaders(result.body));
  return new Response(result.body as Uint8Array<ArrayBuffer>, { headers });
}
