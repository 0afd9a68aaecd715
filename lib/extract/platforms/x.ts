/**
 * X (Twitter): posts and profiles. The page's og:title carries the display name ("Name on X:
 * "text" / X", "Name (@handle) / X"), from which the author and Microlink's title
 * "Name (@handle) on X" are built; the post's own date is the <time> inside its permalink.
 * X serves most clients an empty shell, so a post's facts come first from the public
 * syndication endpoint that embedded posts use (cdn.syndication.twimg.com), when fetched.
 */
import { ld, meta, type Rule } from "../fields/rules.ts";
import { always, before, byTestId, firstSegment, fromEndpoint, hostIs, probed } from "./helpers.ts";
import type { Platform, PlatformData } from "./platform.ts";
import { parseJson } from "../../util/json_depth.ts";

const SYNDICATION = "https://cdn.syndication.twimg.com/tweet-result";

/** The post id of /<user>/status/<id> (or /i/web/status/<id>), else null. */
function statusId(url: URL): string | null {
  const m = /^\/(?:[^/]+|i\/web|i)\/status(?:es)?\/(\d+)/.exec(url.pathname);
  return m ? m[1]! : null;
}

/** The display name in og:title: "Name on X: ...", "Name (@handle) on X", "Name (@handle) / X". */
const displayName = (ogTitle: unknown): string | undefined =>
  typeof ogTitle === "string" ? before(ogTitle, " on X:", " (@") || undefined : undefined;

const ogTitle: Rule = ({ rec }) => rec.meta.get("og:title")?.[0];
const author: Rule = (ctx) => displayName(ogTitle(ctx));

const title: Rule = (ctx) => {
  const handle = firstSegment(ctx.url);
  const name = displayName(ogTitle(ctx));
  // x.com/i/web/status/<id> names no handle: the syndication answer's title stands instead
  if (!handle || handle === "i") return undefined;
  return name ? `${name} (@${handle}) on X` : `@${handle} on X`;
};

const URLS = /https?:\/\/\S+/g;

/**
 * The post's text in og:title ('Name on X: "text" / X'). When it ends with the last of several
 * links, that link is the attached media's and is dropped.
 */
const textInTitle: Rule = (ctx) => {
  const t = ogTitle(ctx);
  if (typeof t !== "string" || !t.includes(' on X: "')) return undefined;
  let text = t.split(' on X: "')[1]!.split('" / X')[0]!;
  const urls = text.match(URLS) ?? [];
  const last = urls[urls.length - 1];
  if (urls.length > 1 && last && text.trimEnd().endsWith(last)) {
    text = text.trimEnd().slice(0, -last.length);
  }
  return text;
};

/** Profile pictures are linked at 200x200; the 400x400 rendition is the one to show. */
const larger = (rule: Rule): Rule => (ctx) => {
  const v = rule(ctx);
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === "string" ? one.replace(/_200x200\.jpg$/, "_400x400.jpg") : one;
};

/** A post's date is its permalink's <time>; a profile's, its newest post's. */
const postDate: Rule = (ctx) => {
  if (statusId(new URL(ctx.url))) {
    return [
      ctx.rec.probed.get("permalinkTime")?.[0],
      ctx.rec.probed.get("articleTime")?.[0],
      ctx.rec.times.find((t) => t.datetime)?.datetime,
    ];
  }
  const times = ctx.rec.probed.get("ownPostTimes") ?? [];
  return times.reduce<string | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);
};

/** A post holds a few links and media; more is not a post. */
const MAX_ENTITIES = 50;
const MAX_TEXT = 25_000;

const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.slice(0, MAX_ENTITIES).filter((x) => typeof x === "object" && x) : [];

/** The syndication answer for a post: its author, text, date and media. */
function readPost(body: string): PlatformData | null {
  // deno-lint-ignore no-explicit-any
  const post = parseJson(body) as any;
  if (post?.__typename !== "Tweet" || typeof post.text !== "string") return null;
  if (post.text.length > MAX_TEXT) return null;
  const user = post.user ?? {};
  let text: string = post.text;
  // the media's own t.co link is dropped; other links are expanded
  for (const m of list(post.entities?.media)) {
    if (typeof m.url === "string" && m.url) text = text.split(m.url).join("");
  }
  for (const u of list(post.entities?.urls)) {
    if (typeof u.url === "string" && u.url && typeof u.expanded_url === "string") {
      text = text.split(u.url).join(u.expanded_url);
    }
  }
  const media = list(post.mediaDetails);
  const mp4s = media.flatMap((m) =>
    list((m.video_info as { variants?: unknown } | undefined)?.variants)
      .filter((v) => v.content_type === "video/mp4")
  ).sort((a, b) => Number(b.bitrate ?? 0) - Number(a.bitrate ?? 0));
  return {
    title: typeof user.name === "string" && typeof user.screen_name === "string"
      ? `${user.name} (@${user.screen_name}) on X`
      : undefined,
    author: user.name,
    description: text.trim(),
    date: post.created_at,
    image: media[0]?.media_url_https ?? post.photos?.[0]?.url ?? post.video?.poster,
    video: mp4s[0] ? { src: mp4s[0].url, type: "video/mp4" } : undefined,
  };
}

/** The token the syndication endpoint expects: the id scaled into base 36, zeros and dot out. */
export function syndicationToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, "");
}

export const x: Platform = {
  name: "x",
  test: (url) => hostIs(url, "x.com", "twitter.com"),
  probes(url) {
    const id = statusId(url);
    const handle = `/${firstSegment(url.href).toLowerCase()}/status/`;
    const time = (tag: string) => tag === "time";
    const img = (tag: string) => tag === "img";
    return [
      {
        name: "permalinkTime",
        within: (tag, a) => tag === "a" && id !== null && !!a.href?.includes(`/status/${id}`),
        match: time,
        attr: "datetime",
      },
      { name: "articleTime", within: (tag) => tag === "article", match: time, attr: "datetime" },
      {
        name: "ownPostTimes",
        within: (tag, a) => tag === "a" && !!a.href?.toLowerCase().includes(handle),
        match: time,
        attr: "datetime",
        keep: 100,
      },
      { name: "postPhoto", within: byTestId("tweetPhoto"), match: img, attr: "src" },
      { name: "cardImage", within: byTestId("card.layoutLarge.media"), match: img, attr: "src" },
    ];
  },
  rules: {
    title: [fromEndpoint("title"), title],
    author: [fromEndpoint("author"), author],
    description: [
      fromEndpoint("description"),
      ld("mainEntity.description"),
      meta("og:description"),
      textInTitle,
    ],
    image: [
      fromEndpoint("image"),
      larger((ctx) =>
        [
          ...ld("mainEntity.image.contentUrl")(ctx) as unknown[],
          ctx.rec.media.find((m) => m.tag === "video" && m.poster)?.poster,
          probed("postPhoto")(ctx),
          probed("cardImage")(ctx),
          ...ctx.rec.meta.get("og:image") ?? [],
        ].flat().filter(Boolean)
      ),
    ],
    video: [fromEndpoint("video")],
    date: [fromEndpoint("date"), postDate],
    url: [({ rec }) => rec.links.filter((l) => l.rel.includes("canonical")).map((l) => l.href)],
    publisher: [always("X")],
  },
  endpoint: {
    url(page) {
      const id = statusId(page);
      return id ? `${SYNDICATION}?id=${id}&token=${syndicationToken(id)}&lang=en` : null;
    },
    accept: "application/json",
    read: readPost,
  },
};
