/**
 * Parse.ly metadata, read as late fallbacks: the `parsely-*` metas (parsely-title,
 * parsely-author, parsely-pub-date, parsely-image-url, parsely-link) and the JSON of
 * `<meta name="parsely-page">` ({"title", "author" or "authors", "pub_date", "image_url",
 * "link", "section"}).
 */
import { memo, meta, type Rule } from "./rules.ts";
import { parseJson } from "../../util/json_depth.ts";

type ParselyPage = Record<string, unknown>;

function page(ctx: Parameters<Rule>[0]): ParselyPage | null {
  return memo(ctx, "parsely-page", () => {
    const raw = ctx.rec.meta.get("parsely-page")?.[0];
    if (!raw) return null;
    try {
      const json = parseJson(raw) as ParselyPage | null;
      return json && typeof json === "object" && !Array.isArray(json) ? json : null;
    } catch {
      return null;
    }
  });
}

/** `parsely-<name>` meta, then the parsely-page JSON's `key` (arrays tried in order). */
export const parsely = (name: string, key: string): Rule => (ctx) => [
  meta(`parsely-${name}`)(ctx),
  page(ctx)?.[key],
];
