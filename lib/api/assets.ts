import { toBase64Url } from "../util/base64url.ts";
import { prettyBytes } from "../media/pretty.ts";
import type { MediaObject } from "../util/payload_types.ts";
import type { Services } from "../services/mod.ts";
import type { StoredAsset } from "../store/types.ts";
import { SANDBOX_CSP, untrustedBodyHeaders } from "./untrusted_body.ts";

export const ASSET_PREFIX = "/assets/";
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  pdf: "application/pdf",
  mp4: "video/mp4",
  webm: "video/webm",
};
/** Hosted assets live as long as the longest cache entry that can point at them. */
const ASSET_TTL_MS = 31 * 86_400_000;

/** Stores a capture and describes it as a media object with a URL served by linkpeek. */
export async function hostAsset(
  services: Services,
  asset: {
    bytes: Uint8Array;
    type: "png" | "jpg" | "pdf" | "mp4" | "webm";
    width: number | null;
    height: number | null;
    credentialed: boolean;
    /** `filename`, sanitised (sanitizeFilename): the URL's last segment, less extension. */
    filename?: string | null;
  },
): Promise<MediaObject> {
  // 128 random bits: ids of credentialed captures must not be guessable, and no others are.
  const id = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  await services.store.putAsset(id, {
    bytes: asset.bytes,
    contentType: CONTENT_TYPES[asset.type]!,
    private: asset.credentialed,
    ttlMs: ASSET_TTL_MS,
    ...(asset.filename ? { filename: `${asset.filename}.${asset.type}` } : {}),
  });
  return {
    url: `${services.config.publicUrl}${ASSET_PREFIX}${
      asset.filename ? `${id}/${asset.filename}` : id
    }.${asset.type}`,
    type: asset.type,
    size: asset.bytes.length,
    size_pretty: prettyBytes(asset.bytes.length),
    width: asset.width,
    height: asset.height,
  };
}

/** `/assets/<id>.<ext>`, or `/assets/<id>/<filename>.<ext>` when the request named the file. */
const ASSET_PATH =
  /^\/assets\/([A-Za-z0-9_-]{1,128})(?:\/([A-Za-z0-9._-]{1,100}))?\.(png|jpg|pdf|mp4|webm)$/;

/** The asset id in a path like `/assets/<id>.png`, or null when it is not an asset path. */
export function assetIdOf(path: string): string | null {
  return ASSET_PATH.exec(path)?.[1] ?? null;
}

/**
 * The name a client saves the asset under: the one stored when the capture was made, never the
 * name in the link (anyone can rewrite that segment of a shared URL), none when none was asked.
 */
export function assetDisposition(asset: StoredAsset): Record<string, string> {
  // Sanitised names hold only [A-Za-z0-9._-]: nothing to quote or escape. One that does not (a
  // damaged record) is no name, not a header that cannot be sent.
  if (!asset.filename || !/^[A-Za-z0-9._-]+$/.test(asset.filename)) return {};
  return { "content-disposition": `inline; filename="${asset.filename}"` };
}

/** GET /assets/<id>.<ext> */
export async function serveAsset(services: Services, path: string): Promise<Response | null> {
  const id = assetIdOf(path);
  if (!id) return null;
  const asset = await services.store.getAsset(id);
  if (!asset) return null;
  return new Response(asset.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...assetDisposition(asset),
      // A capture holds what the target drew: served by what its bytes are, like an embed (an
      // attachment when they are no media, whatever name was asked for).
      ...untrustedBodyHeaders(asset.bytes),
      "content-length": String(asset.bytes.length),
      "cache-control": asset.private
        ? "private, max-age=31536000, immutable"
        : "public, max-age=31536000, immutable",
      "access-control-allow-origin": "*",
      "content-security-policy": SANDBOX_CSP,
    },
  });
}
