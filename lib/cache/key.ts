/**
 * Cache keys: SHA-256 over the normalised target URL and the parameters that change the
 * answer; caller credentials enter only as an HMAC under the server secret, so a credentialed
 * answer is never served to anyone else and the key reveals nothing.
 */
import { createHash, createHmac } from "node:crypto";

/** `headers.*` names that are not credentials (they still change the answer: pass them in params). */
const UNCREDENTIALED = new Set(["user-agent", "accept-language"]);

export function isCredentialHeader(name: string): boolean {
  return !UNCREDENTIALED.has(name.toLowerCase());
}

export interface CacheKey {
  /** 64 hex characters. */
  key: string;
  /** The request carried credentials: answer `cache-control: private, no-store`. */
  private: boolean;
}

export function cacheKey(options: {
  /** The target URL; userinfo is moved out of it into the credential HMAC. */
  url: string;
  /** Parameters that change the answer, without key, signature, ttl, staleTtl, force. */
  params: readonly (readonly [string, string])[];
  /** Credential `headers.*` (name -> value); non-credential names are ignored here. */
  credentials?: Record<string, string> | null;
  secret: Uint8Array;
}): CacheKey {
  const url = new URL(options.url);
  const secrets: [string, string][] = Object.entries(options.credentials ?? {})
    .filter(([name]) => isCredentialHeader(name))
    .map(([name, value]) => [name.toLowerCase(), value]);
  if (url.username || url.password) {
    secrets.push([":userinfo", `${url.username}:${url.password}`]);
    url.username = "";
    url.password = "";
  }
  secrets.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  const credentialMac = secrets.length
    ? createHmac("sha256", options.secret).update(JSON.stringify(secrets)).digest("hex")
    : null;
  const params = options.params.map(([name, value]) => [name, value]).sort((a, b) =>
    a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0
  );
  const key = createHash("sha256")
    .update(JSON.stringify(["v1", url.href, params, credentialMac]))
    .digest("hex");
  return { key, private: credentialMac !== null };
}
