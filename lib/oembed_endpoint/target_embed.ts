/**
 * The target's own oEmbed provider, for /oembed's video, rich and photo answers: the page's
 * `<link type="application/json+oembed">` is read by a custom `data` rule in the API query
 * (buildPayload keeps its own discovery to itself), else the listed provider for the
 * page's URL (registeredOembedUrl) is taken, and the provider is asked, sized,
 * through the guarded fetcher by fetchOembed. What it answers is checked and kept in the
 * payload, so the response cache holds it with the page.
 */
import type { Payload } from "../api/payload.ts";
import type { Fetcher } from "../fetch/types.ts";
import { fetchOembed } from "../oembed/mod.ts";
import { registeredOembedUrl } from "../oembed/registry.ts";
import { clip, fit, httpUrl, pixels } from "./_markup.ts";
import { type Limits, safeEmbedHtml } from "./embed_html.ts";

/** The custom rule's name: the discovered provider URL, replaced by PROVIDER_FIELD. */
export const DISCOVERY_FIELD = "linkpeekOembedUrl";
/** The checked provider answer (ProviderEmbed) or null, in the payload's data. */
export const PROVIDER_FIELD = "linkpeekOembed";

/** The custom rule, as query pairs: the first JSON oEmbed link's href, absolute, http(s). */
export const DISCOVERY_QUERY: [string, string][] = [
  [`data.${DISCOVERY_FIELD}.selector`, 'link[type="application/json+oembed" i]'],
  [`data.${DISCOVERY_FIELD}.attr`, "href"],
  [`data.${DISCOVERY_FIELD}.type`, "url"],
];

/** A provider's answer, as linkpeek will pass it on. */
export interface ProviderEmbed {
  type: "video" | "rich" | "photo";
  /** video and rich: the safe markup (see safeEmbedHtml); photo: null. */
  html: string | null;
  /** photo: the image; video and rich: null. */
  url: string | null;
  width: number;
  height: number;
  title: string | null;
  author_name: string | null;
  author_url: string | null;
  provider_name: string | null;
  provider_url: string | null;
}

const MAX_TEXT = 300;

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? clip(value, MAX_TEXT) : null;
}

/** A provider's JSON answer checked into a ProviderEmbed; null for link answers or junk. */
export function readProviderAnswer(
  answer: Record<string, unknown>,
  options: Limits & { providerUrl: string; pageTitle: string | null },
): ProviderEmbed | null {
  const type = typeof answer.type === "string" ? answer.type.toLowerCase() : "";
  const named = {
    title: text(answer.title),
    author_name: text(answer.author_name),
    author_url: httpUrl(answer.author_url),
    provider_name: text(answer.provider_name),
    provider_url: httpUrl(answer.provider_url),
  };
  const width = pixels(answer.width);
  const height = pixels(answer.height);
  if (type === "photo") {
    const url = httpUrl(answer.url, options.providerUrl);
    if (!url || !width || !height) return null;
    return { type, html: null, url, ...fit({ width, height }, options), ...named };
  }
  if ((type === "video" || type === "rich") && typeof answer.html === "string") {
    if (!answer.html.trim()) return null;
    const title = named.title ?? options.pageTitle;
    const embed = safeEmbedHtml(answer.html, { ...options, width, height, title });
    return { type, url: null, ...embed, ...named };
  }
  return null;
}

/**
 * Endpoint.complete for /oembed: asks the provider the page names (never linkpeek itself, whose
 * playground names its own /oembed) and keeps its checked answer under PROVIDER_FIELD. A
 * provider that fails, or answers nothing usable, leaves null: the card stands in.
 */
export async function withProviderEmbed(
  payload: Payload,
  options: Limits & { fetcher: Fetcher; signal: AbortSignal; ownOrigin: string },
): Promise<Payload> {
  const { [DISCOVERY_FIELD]: discovered, ...data } = payload.data;
  const pageUrl = httpUrl(data.url);
  const providerUrl = httpUrl(discovered) ??
    (pageUrl ? await registeredOembedUrl(pageUrl) : null);
  let embed: ProviderEmbed | null = null;
  if (providerUrl && new URL(providerUrl).origin !== options.ownOrigin) {
    const fetched = await fetchOembed(providerUrl, {
      fetcher: options.fetcher,
      signal: options.signal,
      maxWidth: options.maxWidth ?? undefined,
      maxHeight: options.maxHeight ?? undefined,
    });
    if (fetched) {
      embed = readProviderAnswer(fetched.answer, {
        ...options,
        providerUrl: fetched.url,
        pageTitle: text(data.title),
      });
    }
  }
  return { ...payload, data: { ...data, [PROVIDER_FIELD]: embed } };
}
