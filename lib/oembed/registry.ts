/**
 * oEmbed providers by URL scheme, from the `oembed-providers` npm package (the list oembed.com
 * publishes), for pages that carry no discovery link of their own: YouTube, Vimeo, X, TikTok,
 * Spotify, SoundCloud and every other listed provider. Loaded and indexed by host on first use.
 */

interface Listed {
  provider_name: string;
  endpoints: { schemes?: string[]; url: string }[];
}

interface Scheme {
  pattern: RegExp;
  endpoint: string;
}

/** Longer URLs are not pages anyone embeds; matching stays cheap. */
const MAX_URL = 2048;
/** Hosts the list does not name yet that its providers answer for. */
const ALIASES: Record<string, string> = { "x.com": "twitter.com" };

let index: Promise<Map<string, Scheme[]>> | null = null;

/** `https://*.youtube.com/watch*`: `*` stays inside the host there, spans anything in the path. */
function compile(scheme: string): { host: string; pattern: RegExp } | null {
  const match = /^https?:\/\/([^/]+)(\/.*)?$/i.exec(scheme);
  if (!match) return null; // spotify:*, and other non-web schemes
  const escape = (text: string, star: string) =>
    text.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(star);
  const host = match[1]!.toLowerCase();
  const path = match[2] ?? "/";
  const pattern = new RegExp(`^https?://${escape(host, "[^/?#]*")}${escape(path, ".*")}$`, "i");
  // Indexed under the host's fixed tail: `*.youtube.com` under youtube.com.
  return { host: host.slice(host.lastIndexOf("*") + 1).replace(/^\./, ""), pattern };
}

function buildIndex(providers: Listed[]): Map<string, Scheme[]> {
  const byHost = new Map<string, Scheme[]>();
  for (const provider of providers) {
    for (const { schemes = [], url } of provider.endpoints ?? []) {
      const endpoint = url.replace("{format}", "json");
      for (const scheme of schemes) {
        const compiled = compile(scheme);
        if (!compiled || !compiled.host) continue;
        const list = byHost.get(compiled.host) ?? [];
        list.push({ pattern: compiled.pattern, endpoint });
        byHost.set(compiled.host, list);
      }
    }
  }
  return byHost;
}

function loadIndex(): Promise<Map<string, Scheme[]>> {
  index ??= import("oembed-providers/providers.json", { with: { type: "json" } })
    .then(({ default: providers }) => buildIndex(providers as Listed[]));
  return index;
}

/**
 * The listed provider's JSON endpoint for `pageUrl` (with `url` and `format=json` set), or null
 * when no listed scheme matches it.
 */
export async function registeredOembedUrl(pageUrl: string): Promise<string | null> {
  if (pageUrl.length > MAX_URL) return null;
  const url = URL.parse(pageUrl);
  if (!url) return null;
  const byHost = await loadIndex();
  const labels = url.hostname.toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const tail = labels.slice(i).join(".");
    const alias = ALIASES[tail];
    const listedHost = alias ? url.hostname.slice(0, -tail.length) + alias : url.hostname;
    const candidate = `${url.protocol}//${listedHost}${url.pathname}${url.search}`;
    for (const scheme of byHost.get(alias ?? tail) ?? []) {
      if (!scheme.pattern.test(candidate)) continue;
      const endpoint = new URL(scheme.endpoint);
      endpoint.searchParams.set("url", pageUrl);
      endpoint.searchParams.set("format", "json");
      return endpoint.href;
    }
  }
  return null;
}
