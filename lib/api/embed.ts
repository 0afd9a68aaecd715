import { ApiError } from "../errors.ts";
import { sniffMedia } from "../media/sniff.ts";
import type { Services } from "../services.ts";
import { assetDisposition, assetIdOf } from "./assets.ts";
import type { HeaderMap } from "./respond.ts";

/** Reads a dot path (`image.url`, `screenshot.url`, `title`) out of data. */
export function fieldAt(data: Record<string, unknown>, path: string): unknown {
  let value: unknown = data;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const INLINE_KINDS = new Set(["image", "audio", "video", "pdf"]);

function safeBody(bytes: Uint8Array, contentType: string | null): HeaderMap {
  const { kind } = sniffMedia({ bytes, contentType });
  const headers: HeaderMap = {};
  // SVG is an image that can carry script: never inline.
  const svg = /svg/i.test(contentType ?? "") || /^\s*(<\?xml[^>]*>\s*)?<svg/i.test(
    new TextDecoder().decode(bytes.subarray(0, 256)),
  );
  if (INLINE_KINDS.has(kind) && !svg) {
    headers["content-type"] = contentType && !/octet-stream/i.test(contentType)
      ? contentType
      : kind === "pdf"
      ? "application/pdf"
      : "application/octet-stream";
  } else {
    headers["content-type"] = "application/octet-stream";
    headers["content-security-policy"] = "default-src 'none'; sandbox";
    headers["content-disposition"] = "attachment";
  }
  return headers;
}

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
  if (typeof value === "object") {
    headers["content-type"] = "application/json; charset=utf-8";
    return new Response(JSON.stringify(value), { headers });
  }
  const text = String(value);
  const isUrlField = path === "url" || path.endsWith(".url");
  if (!isUrlField) {
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
    Object.assign(headers, assetDisposition(text.slice(publicUrl.length)));
    Object.assign(headers, safeBody(asset.bytes, asset.contentType));
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
  const contentType = result.headers["content-type"] ?? null;
  Object.assign(headers, safeBody(result.body, contentType));
  return new Response(result.body as Uint8Array<ArrayBuffer>, { headers });
}
