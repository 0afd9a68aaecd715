/**
 * image: og -> twitter -> microdata -> JSON-LD -> image_src -> Parse.ly -> content images in
 * the article/page (site chrome is left out when the page is read: see collect.ts).
 */
import { isAudioUrl, isVideoUrl } from "./media.ts";
import { parsely } from "./parsely.ts";
import { resolveUrl } from "./resolve.ts";
import { allOf, type Context, itemMeta, meta, type Rule, rulesFor } from "./rules.ts";
import { largestCandidate, looksLikeSrcset } from "./srcset.ts";

const MAX = 5;

/** JSON-LD image values: strings, ImageObjects ({url} / {contentUrl}) or lists of them. */
const ldImages: Rule = ({ ld }) =>
  ld.values("image").map((v) => {
    const node = ld.deref(v) as Record<string, unknown> | string;
    return typeof node === "string" ? node : node?.url ?? node?.contentUrl;
  });

export const imageRules: Rule[] = [
  // A page led by a video shows its poster, as Microlink does.
  ({ rec }) => rec.media.filter((m) => m.tag === "video").map((m) => m.poster),
  meta("og:image:secure_url"),
  meta("og:image:url"),
  meta("og:image"),
  meta("twitter:image:src"),
  meta("twitter:image"),
  itemMeta("image"),
  ldImages,
  ({ rec }) => rec.links.filter((l) => l.rel.includes("image_src")).map((l) => l.href),
  parsely("image-url", "image_url"),
  ({ rec }) =>
    rec.itemprops.filter((i) => i.props.includes("image") && i.tag === "img")
      .map((i) => i.attrs.src),
  ({ rec }) => rec.images.article,
  ({ rec }) => rec.images.content,
  ({ rec }) => rec.images.authorAlt,
  ({ rec }) => rec.images.any,
];

/** An absolute image URL; a srcset value becomes its largest candidate, never a URL itself. */
export function normaliseImage(value: unknown, ctx: Context): string | null {
  const src = typeof value === "string" && looksLikeSrcset(value) ? largestCandidate(value) : value;
  const u = resolveUrl(src, ctx);
  return u === null || isAudioUrl(u) || isVideoUrl(u) ? null : u;
}

export const image = (ctx: Context): string[] =>
  allOf(rulesFor(ctx, "image", imageRules), { normalise: normaliseImage, ctx, limit: MAX });
