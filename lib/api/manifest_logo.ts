import { type Fetcher, targetHeaderOptions, type TargetHeaders } from "../fetch/types.ts";
import { httpUrl } from "../util/target_url.ts";
import { parseJson } from "../util/json_depth.ts";

const MAX_MANIFEST_BYTES = 256 * 1024;

function largestSide(sizes: unknown): number {
  if (typeof sizes !== "string") return 0;
  if (sizes.trim() === "any") return 10_000; // scalable icons first
  return Math.max(0, ...sizes.split(/\s+/).map((s) => Number(s.split(/x/i)[0]) || 0));
}

/**
 * Icons of a web app manifest, largest first, as absolute http(s) URLs. Fetched through the
 * guarded fetcher; any failure means no icons, never a failed request.
 */
export async function manifestIcons(
  manifestUrl: string,
  options: { fetcher: Fetcher; signal?: AbortSignal; targetHeaders?: TargetHeaders },
): Promise<string[]> {
  try {
    const result = await options.fetcher.fetch(manifestUrl, {
      ...targetHeaderOptions(options.targetHeaders),
      maxBytes: MAX_MANIFEST_BYTES,
      timeoutMs: 3000,
      signal: options.signal,
    });
    if (result.statusCode < 200 || result.statusCode > 299) return [];
    const manifest = parseJson(new TextDecoder().decode(result.body)) as { icons?: unknown };
    const icons: unknown[] = Array.isArray(manifest?.icons) ? manifest.icons : [];
    return icons
      .filter((icon): icon is { src: string; sizes?: unknown } =>
        typeof (icon as { src?: unknown })?.src === "string"
      )
      .sort((a, b) => largestSide(b.sizes) - largestSide(a.sizes))
      .map((icon) => httpUrl(icon.src, result.url)?.href)
      .filter((href): href is string => href !== undefined);
  } catch {
    return [];
  }
}
