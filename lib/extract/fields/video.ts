/** video: og:video -> twitter:player:stream -> JSON-LD contentUrl -> <video>/<source>. */
import { playerStream, type Typed } from "./audio.ts";
import { isVideoUrl, typeIs } from "./media.ts";
import { resolveUrl } from "./resolve.ts";
import { allOf, type Context, type Rule, rulesFor } from "./rules.ts";

const MAX = 5;

const ogVideo: Rule = ({ rec }) => {
  const type = rec.meta.get("og:video:type")?.[0];
  return ["og:video:secure_url", "og:video:url", "og:video"]
    .flatMap((k) => rec.meta.get(k) ?? []).map((src) => ({ src, type }));
};

export const videoRules: Rule[] = [
  ogVideo,
  playerStream("twitter:player:stream"),
  ({ ld }) => ld.values("contentUrl").map((src) => ({ src })),
  ({ ld }) => ld.values("video.contentUrl").map((src) => ({ src })),
  ({ rec }) =>
    rec.media.filter((m) => m.tag === "video").map((m) => ({ src: m.src, type: m.type })),
  ({ rec }) =>
    rec.media.filter((m) => m.tag === "source" && m.parent === "video")
      .map((m) => ({ src: m.src, type: m.type })),
];

/** An absolute URL that is video by its extension or its declared type ({src, type}). */
export const normaliseVideo = (value: unknown, ctx: Context): string | null => {
  const { src, type } = (typeof value === "string" ? { src: value } : value) as Typed;
  const u = resolveUrl(src, ctx);
  return u !== null && (isVideoUrl(u) || typeIs(type, "video")) ? u : null;
};

export const video = (ctx: Context): string[] =>
  allOf(rulesFor(ctx, "video", videoRules), { normalise: normaliseVideo, ctx, limit: MAX });
