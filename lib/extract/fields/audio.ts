/** audio: og:audio -> twitter:player:stream -> JSON-LD contentUrl -> <audio>/<source> -> links. */
import { isAudioUrl, typeIs } from "./media.ts";
import { resolveUrl } from "./resolve.ts";
import { allOf, type Context, type Rule, rulesFor } from "./rules.ts";

const MAX = 5;

/** A URL that is audio by its extension or by its declared type. */
export interface Typed {
  src: unknown;
  type?: string;
}

const metaTyped = (keys: string[], typeKey: string): Rule => ({ rec }) => {
  const type = rec.meta.get(typeKey)?.[0];
  return keys.flatMap((k) => rec.meta.get(k) ?? []).map((src) => ({ src, type }));
};

export const ogAudio = metaTyped(
  ["og:audio:secure_url", "og:audio:url", "og:audio"],
  "og:audio:type",
);
export const playerStream = (key: string) => metaTyped([key], `${key}:content_type`);

export const audioRules: Rule[] = [
  ogAudio,
  playerStream("twitter:player:stream"),
  ({ ld }) => ld.values("contentUrl").map((src) => ({ src })),
  ({ ld }) => ld.values("associatedMedia.contentUrl").map((src) => ({ src })),
  ({ rec }) =>
    rec.media.filter((m) => m.tag === "audio").map((m) => ({ src: m.src, type: m.type })),
  ({ rec }) =>
    rec.media.filter((m) => m.tag === "source" && m.parent === "audio")
      .map((m) => ({ src: m.src, type: m.type })),
  ({ rec }) => rec.audioLinks.map((src) => ({ src })),
];

/** An absolute URL that is audio by its extension or its declared type ({src, type}). */
export const normaliseAudio = (value: unknown, ctx: Context): string | null => {
  const { src, type } = (typeof value === "string" ? { src: value } : value) as Typed;
  const u = resolveUrl(src, ctx);
  return u !== null && (isAudioUrl(u) || typeIs(type, "audio")) ? u : null;
};

export const audio = (ctx: Context): string[] =>
  allOf(rulesFor(ctx, "audio", audioRules), { normalise: normaliseAudio, ctx, limit: MAX });
