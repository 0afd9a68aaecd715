/**
 * A payload as an oEmbed 1.0 answer (https://oembed.com, 2.3.4): the target's own provider's
 * `video`, `rich` or `photo` passed on; `photo` when the target is an image; otherwise `rich`
 * with linkpeek's card; `link` when asked. The common fields come from linkpeek's metadata,
 * the provider's where linkpeek has none.
 */
import { ApiError } from "../util/errors.ts";
import type { Payload } from "../api/payload.ts";
import type { ResponseMeta } from "../api/respond.ts";
import type { MediaObject } from "../util/payload_types.ts";
import { clip, fit, httpUrl, siteName } from "./_markup.ts";
import { renderCard } from "./card.ts";
import { PROVIDER_FIELD, type ProviderEmbed } from "./target_embed.ts";
import type { OembedRequest } from "./request.ts";

/** Field name to value, in the order the spec lists them; absent fields are left out. */
export type OembedAnswer = Record<string, string | number>;

const MAX_TEXT = 300;

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? clip(value, MAX_TEXT) : null;
}

function media(value: unknown): MediaObject | null {
  if (value === null || typeof value !== "object") return null;
  const object = value as MediaObject;
  return httpUrl(object.url) ? object : null;
}

/** Media with a known size, scaled to the limits (the spec: a thumbnail respects them). */
function sized(object: MediaObject | null, request: OembedRequest) {
  if (!object?.width || !object.height) return null;
  return {
    url: httpUrl(object.url)!,
    ...fit({ width: object.width, height: object.height }, request),
  };
}

/** The answer for a payload; ENOTFOUND (404) when the target has nothing to embed. */
export function oembedAnswer(
  payload: Payload,
  options: { request: OembedRequest; meta: ResponseMeta; target: URL },
): OembedAnswer {
  const { request, meta } = options;
  const { data } = payload;
  const pageUrl = httpUrl(data.url) ?? options.target.href;
  if (payload.statusCode !== null && payload.statusCode >= 400) {
    throw new ApiError(
      "ENOTFOUND",
      `The URL \`${pageUrl}\` answered ${payload.statusCode}: there is nothing to embed.`,
    );
  }
  const provider = (data[PROVIDER_FIELD] ?? null) as ProviderEmbed | null;
  const image = media(data.image);
  // A target that is itself an image is described as that file: data.url is the image's URL.
  const photo = image?.url === data.url ? sized(image, request) : null;
  const title = text(data.title) ?? provider?.title ?? null;
  const description = text(data.description);
  if (!photo && !provider && !title && !description && !image) {
    throw new ApiError("ENOTFOUND", `The URL \`${pageUrl}\` has nothing to embed.`);
  }

  const answer: OembedAnswer = { version: "1.0", type: "link" };
  const put = (name: string, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined) answer[name] = value;
  };
  put("title", title);
  put("author_name", text(data.author) ?? provider?.author_name);
  put("author_url", provider?.author_url);
  put("provider_name", text(data.publisher) ?? provider?.provider_name ?? siteName(pageUrl));
  put("provider_url", `${new URL(pageUrl).origin}/`);
  // Seconds the answer stays in linkpeek's cache; a private answer is for no cache at all.
  if (!meta.private) put("cache_age", Math.max(0, Math.floor(meta.cacheTtlMs / 1000)));
  // A photo answer is the image itself; a link answer shows it as its thumbnail.
  const thumbnail = photo && !request.link ? null : sized(image, request);
  if (thumbnail) {
    put("thumbnail_url", thumbnail.url);
    put("thumbnail_width", thumbnail.width);
    put("thumbnail_height", thumbnail.height);
  }
  if (request.link) return answer;

  if (photo || provider?.type === "photo") {
    const shown = photo ??
      { url: provider!.url!, width: provider!.width, height: provider!.height };
    return { ...answer, type: "photo", ...shown };
  }
  if (provider) {
    const { html, width, height } = provider;
    return { ...answer, type: provider.type, html: html!, width, height };
  }
  const card = renderCard({
    url: pageUrl,
    title,
    description,
    publisher: text(data.publisher),
    lang: text(data.lang),
    image,
    logo: media(data.logo),
  }, request);
  return { ...answer, type: "rich", html: card.html, width: card.width, height: card.height };
}
