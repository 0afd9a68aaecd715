/**
 * Bluesky: posts and profiles. A post's image is the thumbnail inside the author's own thread
 * item (replies carry theirs), else og:image, else the profile's picture in its JSON-LD.
 */
import { ld } from "../fields/rules.ts";
import { always, byTestId, hostIs, probed } from "./helpers.ts";
import type { Platform } from "./platform.ts";

/** The handle of /profile/<handle>/... */
const handleOf = (url: URL) => url.pathname.split("/")[2] ?? "";

export const bluesky: Platform = {
  name: "bluesky",
  test: (url) => hostIs(url, "bsky.app"),
  probes: (url) => [{
    name: "postImage",
    within: byTestId(`postThreadItem-by-${handleOf(url)}`),
    match: (tag, a) => tag === "img" && !!a.src?.includes("feed_thumbnail"),
    attr: "src",
  }],
  rules: {
    image: [
      probed("postImage"),
      ({ rec }) => rec.meta.get("og:image"),
      ld("mainEntity.image"),
    ],
    author: [ld("mainEntity.name"), ld("author.name")],
    publisher: [always("Bluesky")],
  },
};
