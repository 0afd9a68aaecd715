/**
 * Hook for logos from a web app manifest: the manifest's absolute URL. Reading its icons needs
 * a fetch through the guarded fetcher, which belongs to the ping step, not to extraction.
 */
import { resolveUrl } from "./resolve.ts";
import type { Context } from "./rules.ts";

/** href of <link rel="manifest">, absolute, or null. */
export function manifestUrl(ctx: Context): string | null {
  const link = ctx.rec.links.find((l) => l.rel.includes("manifest"));
  return link ? resolveUrl(link.href, ctx) : null;
}
