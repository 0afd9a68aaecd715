/**
 * YouTube: videos, shorts and playlists. The <title> without " - YouTube", the channel as
 * author (microdata), and besides YouTube's own og:image the video's thumbnails from largest to
 * smallest, which probing (ping) narrows to the first that exists, as metascraper-youtube does.
 */
import { meta, type Rule } from "../fields/rules.ts";
import { always, hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";

const THUMBNAILS = ["maxresdefault", "sddefault", "hqdefault", "mqdefault", "default"];

/** The video id of watch?v=, youtu.be/, /embed/, /shorts/, /live/ and /v/ URLs, else null. */
export function videoId(url: URL): string | null {
  const id = hostIs(url, "youtu.be") ? url.pathname.split("/")[1] : url.searchParams.get("v") ??
    /^\/(?:embed|shorts|live|v)\/([^/?#]+)/.exec(url.pathname)?.[1];
  return id && /^[\w-]{6,20}$/.test(id) ? id : null;
}

const thumbnails: Rule = ({ url }) => {
  const id = videoId(new URL(url));
  return id ? THUMBNAILS.map((size) => `https://img.youtube.com/vi/${id}/${size}.jpg`) : undefined;
};

const channelName: Rule = ({ rec }) =>
  rec.itemprops.find((i) => i.inAuthor && i.props.includes("name"))?.attrs.content;

export const youtube: Platform = {
  name: "youtube",
  test: (url) => hostIs(url, "youtube.com", "youtu.be", "youtube-nocookie.com"),
  rules: {
    title: [({ rec }) => rec.title?.replace(/ - YouTube\s*$/, "")],
    author: [channelName],
    image: [meta("og:image"), thumbnails],
    publisher: [always("YouTube")],
  },
};
