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
  /** Lower-case globs: `*` in `host` spans part of the host, in `path` anything. */
  host: string;
  path: string;
  endpoint: string;
}

/** Longer URLs are not pages anyone embeds; matching stays cheap. */
const MAX_URL = 2048;
/** Hosts the list does not name yet that its providers answer for. */
const ALIASES: Record<string, string> = { "x.com": "twitter.com" };

let index: Promise<Map<string, Scheme[]>> | null = null;

/** `https://*.youtube.com/watch*`: its host and path globs, and the host's fixed tail. */
function compile(scheme: string): { tail: string; host: string; path: string } | null {
  const match = /^https?:\/\/([^/]+)(\/.*)?$/i.exec(scheme);
  if (!match) return null; // spotify:*, and other non-web schemes
  const host = match[1]!.toLowerCase();
  // Indexed under the host's fixed tail: `*.youtube.com` under youtube.com.
  const tail = host.slice(host.lastIndexOf("*") + 1).replace(/^\./, "");
  return { tail, host, path: (match[2] ?? "/").toLowerCase() };
}

/**
 * Does `text` match `glob`, `*` standing for any run of characters? One walk that returns
 * only to the last `*` seen: at most text x glob steps. As regular expressions, schemes with
 * several stars (backtracks.fm's has six, between slashes and an `/e/`) tried every split of
 * a URL of slashes: about 2 s for 400 of them, 40 s for 600.
 */
function globMatch(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1;
  let starAt = 0;
  while (t < text.length) {
    if (glob[g] === "*") {
      star = g++;
      starAt = t;
    } else if (g < glob.length && glob[g] === text[t]) {
      g++;
      t++;
    } else if (star >= 0) {
      g = star + 1;
      t = ++starAt;
    } else {
      return false;
    }
  }
  while (glob[g] === "*") g++;
  return g === glob.length;
}

function buildIndex(providers: Listed[]): Map<string, Scheme[]> {
  const byHost = new Map<string, Scheme[]>();
  for (const provider of providers) {
    for (const { schemes = [], url } of provider.endpoints ?? []) {
      const endpoint = url.replace("{format}", "json");
      for (const scheme of schemes) {
        const compiled = compile(scheme);
        if (!compiled || !compiled.tail) continue;
        const list = byHost.get(compiled.tail) ?? [];
        list.push({ host: compiled.host, path: compiled.path, endpoint });
        byHost.set(compiled.tail, list);
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
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const hostname = url.hostname.toLowerCase();
  const path = `${url.pathname}${url.search}`.toLowerCase();
  const labels = hostname.split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const tail = labels.slice(i).join(".");
    const alias = ALIASES[tail];
    const listedHost = alias ? hostname.slice(0, -tail.length) + alias : hostname;
    for (const scheme of byHost.get(alias ?? tail) ?? []) {
      if (!globMatch(scheme.host, listedHost) || !globMatch(scheme.path, path)) continue;
      const endpoint = new URL(scheme.endpoint);
      endpoint.searchParams.set("url", pageUrl);
      endpoint.searchParams.set("format", "json");
      return endpoint.href;
    }
  }
  return null;
}
