/**
 * Spotify: tracks, albums, playlists, artists, episodes and shows. The page's og:description
 * reads "Listen to this episode from <show> on Spotify. <description>"; the title, artist,
 * release date, preview clip and cover come from the embed page (open.spotify.com/embed/...),
 * whose state is JSON in script#__NEXT_DATA__, fetched as the platform's endpoint.
 */
import { LinearParser } from "../stream/html_parser.ts";
import { meta, type Rule } from "../fields/rules.ts";
import { always, fromEndpoint, hostIs } from "./helpers.ts";
import type { Platform, PlatformData } from "./platform.ts";
import { parseJson } from "../../util/json_depth.ts";

const KINDS = "track|album|playlist|artist|episode|show";
const PAGE = new RegExp(`^/(?:intl-[a-z-]+/)?(${KINDS})/([A-Za-z0-9]{22})`);
const URI = new RegExp(`^spotify:(${KINDS}):([A-Za-z0-9]{22})$`);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** Nodes of the embed state looked at, at most: the entity sits a few levels down. */
const MAX_NODES = 5000;

/** The first object carrying a spotify: uri, searched breadth-first over at most MAX_NODES. */
function findEntity(root: unknown): Json | null {
  const queue: unknown[] = [root];
  const add = (values: unknown[]) => {
    for (const v of values) {
      if (queue.length >= MAX_NODES) return;
      if (typeof v === "object" && v !== null) queue.push(v);
    }
  };
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    if (Array.isArray(v)) add(v);
    else if (isObject(v)) {
      if (typeof v.uri === "string" && URI.test(v.uri) && (v.name || v.title)) return v;
      add(Object.values(v));
    }
  }
  return null;
}

function scriptText(html: string, id: string): string | null {
  let text: string | null = null;
  let inside = false;
  const parser = new LinearParser({
    onopentag(tag, a) {
      inside = tag === "script" && a.id === id;
      if (inside) text = "";
    },
    ontext(data) {
      if (inside) text += data;
    },
    onclosetag() {
      if (inside) parser.pause();
      inside = false;
    },
  }, { decodeEntities: false });
  parser.end(html);
  return text;
}

const largest = (sources: unknown): unknown => {
  if (!Array.isArray(sources)) return undefined;
  return sources.filter(isObject)
    .sort((a, b) => Number(b.width ?? 0) - Number(a.width ?? 0))[0]?.url;
};

/** The embed page's entity: title, artists (or show), date, preview clip, cover, link. */
export function readEmbed(html: string): PlatformData | null {
  const json = scriptText(html, "__NEXT_DATA__");
  if (!json) return null;
  const entity = findEntity(parseJson(json));
  if (!entity) return null;
  const [, kind, id] = URI.exec(entity.uri as string)!;
  const artists = Array.isArray(entity.artists)
    ? entity.artists.filter(isObject).map((a) => a.name).filter((n) => typeof n === "string")
    : [];
  const preview = isObject(entity.audioPreview) ? entity.audioPreview.url : undefined;
  return {
    title: entity.name ?? entity.title,
    author: artists.length ? artists.join(", ") : entity.subtitle,
    date: isObject(entity.releaseDate) ? entity.releaseDate.isoString : undefined,
    audio: typeof preview === "string" ? { src: preview, type: "audio/mpeg" } : undefined,
    image: largest(isObject(entity.coverArt) ? entity.coverArt.sources : entity.images),
    url: `https://open.spotify.com/${kind}/${id}`,
  };
}

const LISTEN = /^Listen to this (?:episode|show) from (.+?) on Spotify\./;

const description: Rule = ({ rec }) => {
  const og = rec.meta.get("og:description")?.[0];
  return og?.includes("on Spotify. ") ? og.split("on Spotify. ")[1] : og;
};

export const spotify: Platform = {
  name: "spotify",
  test: (url) => hostIs(url, "spotify.com"),
  rules: {
    title: [fromEndpoint("title")],
    author: [
      fromEndpoint("author"),
      ({ rec }) => LISTEN.exec(rec.meta.get("og:description")?.[0] ?? "")?.[1],
      meta("music:musician_description"),
    ],
    description: [description],
    date: [fromEndpoint("date")],
    audio: [fromEndpoint("audio")],
    image: [fromEndpoint("image")],
    url: [fromEndpoint("url")],
    publisher: [always("Spotify")],
  },
  endpoint: {
    url(page) {
      const m = PAGE.exec(page.pathname);
      return m ? `https://open.spotify.com/embed/${m[1]}/${m[2]}` : null;
    },
    accept: "text/html",
    read: (body) => readEmbed(body),
  },
};
