import { ApiError } from "./errors.ts";

/** Seed URL rules 1-3: WHATWG-valid, absolute, http or https. Fragments and IDNs are fine. */
export function parseTargetUrl(raw: string | null): URL {
  if (raw === null || raw.trim() === "") {
    throw new ApiError("EINVALURL", "The `url` parameter is required.");
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ApiError("EINVALURL", `The URL \`${raw}\` is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError("EINVALURL", `The URL \`${raw}\` must use http or https.`);
  }
  if (!url.hostname) throw new ApiError("EINVALURL", `The URL \`${raw}\` has no host.`);
  return url;
}
