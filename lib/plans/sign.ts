/**
 * Signed embed URLs. A pro `<img src>` cannot send `x-api-key`, so a key's signing secret
 * authorises one exact query instead:
 *
 *   canonical = every query pair except `signature`, each name and value encoded with
 *               encodeURIComponent, sorted by encoded name then encoded value, as
 *               `name=value` joined by `&`
 *   signature = <key id> "." base64url(HMAC-SHA256(base64url-decoded signing secret, canonical))
 */
import { createHmac } from "node:crypto";
import type { KeyRecord } from "../store/types.ts";
import { fromBase64Url } from "../util/base64url.ts";

export const SIGNATURE_PARAM = "signature";
const SIGNATURE_PATTERN = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;

/** The query as signed: order- and encoding-independent, `signature` left out. */
export function canonicalQuery(query: string | URLSearchParams): string {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  const pairs: [string, string][] = [];
  for (const [name, value] of params) {
    if (name !== SIGNATURE_PARAM) pairs.push([encodeURIComponent(name), encodeURIComponent(value)]);
  }
  pairs.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/** base64url HMAC-SHA256 of the canonical query under a base64url signing secret. */
export function signQuery(secret: string, query: string | URLSearchParams): string {
  return createHmac("sha256", fromBase64Url(secret)).update(canonicalQuery(query)).digest(
    "base64url",
  );
}

/** The `signature` parameter value for a key and query. */
export function signatureFor(
  record: Pick<KeyRecord, "id" | "signingSecret">,
  query: string | URLSearchParams,
): string {
  return `${record.id}.${signQuery(record.signingSecret, query)}`;
}

/** The query as given (minus any old signature) with `&signature=...` appended. */
export function signedQuery(
  record: Pick<KeyRecord, "id" | "signingSecret">,
  query: string,
): string {
  const kept = query.replace(/^\?/, "").split("&").filter((part) =>
    part !== "" && new URLSearchParams(part).keys().next().value !== SIGNATURE_PARAM
  );
  const signature = signatureFor(record, kept.join("&"));
  return [...kept, `${SIGNATURE_PARAM}=${signature}`].join("&");
}

/** Splits a `signature` value into key id and MAC; null when malformed. */
export function parseSignature(value: string): { keyId: string; mac: string } | null {
  const match = SIGNATURE_PATTERN.exec(value);
  return match ? { keyId: match[1]!, mac: match[2]! } : null;
}
