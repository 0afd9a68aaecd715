/**
 * logo: og:logo -> microdata logo -> square JSON-LD logos -> page icons by size -> other
 * JSON-LD logos. No /favicon.ico guess here: probing adds it when ping is on.
 */
import { rankedIcons } from "./icons.ts";
import { normaliseImage } from "./image.ts";
import { allOf, type Context, itemMeta, meta, type Rule, rulesFor } from "./rules.ts";

const MAX = 5;
const OWNERS = ["brand", "organization", "place", "product", "service", "publisher"];

/** JSON-LD logo URLs under `owner.logo`; `square` keeps only those declared square. */
const ldLogos = (square: boolean): Rule => ({ ld }) => {
  const out: unknown[] = [];
  const paths = [...OWNERS.map((o) => `${o}.logo`), "logo"];
  for (const path of paths) {
    for (const v of ld.values(path)) {
      const node = ld.deref(v);
      if (typeof node === "string") {
        if (!square) out.push(node);
        continue;
      }
      const n = node as Record<string, unknown>;
      const url = n.url ?? n.contentUrl;
      const w = n.width, h = n.height;
      const isSquare = w !== undefined && h !== undefined && String(w) === String(h);
      if (isSquare === square) out.push(url);
    }
  }
  return out;
};

export const logoRules: Rule[] = [
  meta("og:logo"),
  itemMeta("logo"),
  ({ rec }) => rec.images.itempropLogo,
  ({ rec }) => rec.images.inItempropLogo,
  ({ rec }) => rec.itemprops.filter((i) => i.props.includes("logo")).map((i) => i.attrs.href),
  ldLogos(true),
  rankedIcons,
  ldLogos(false),
];

/** A logo is an image URL, normalised as images are. */
export const normaliseLogo = normaliseImage;

export const logo = (ctx: Context): string[] =>
  allOf(rulesFor(ctx, "logo", logoRules), { normalise: normaliseLogo, ctx, limit: MAX });
