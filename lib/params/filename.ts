import { ApiError } from "../util/errors.ts";

const MAX_LENGTH = 100;
/** What a hosted asset's own extension may look like, dropped from the name. */
const OWN_EXTENSION = /\.(png|jpe?g|pdf)$/i;

/**
 * `filename` as a single safe URL segment and Content-Disposition name: every character other
 * than letters, digits, dot, dash and underscore becomes a dash (path separators included, so
 * it is never a path), leading dots and dashes go (no hidden or relative names), the asset's
 * own extension goes (linkpeek adds the right one). Nothing left is EINVALQUERY.
 */
export function sanitizeFilename(raw: string): string {
  const name = raw.normalize("NFKC")
    .replace(OWN_EXTENSION, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .slice(0, MAX_LENGTH)
    .replace(/^[.-]+|[.-]+$/g, "");
  if (name === "") {
    throw new ApiError(
      "EINVALQUERY",
      "The parameter `filename` must hold letters or digits (a file name, not a path).",
    );
  }
  return name;
}
