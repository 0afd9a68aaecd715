/** SoundCloud: tracks and sets. The uploader's name and the description as the page shows them. */
import { always, byClass, hostIs, probed } from "./helpers.ts";
import type { Platform } from "./platform.ts";

export const soundcloud: Platform = {
  name: "soundcloud",
  test: (url) => hostIs(url, "soundcloud.com"),
  probes: () => [
    { name: "username", match: byClass("soundTitle__username") },
    { name: "description", match: byClass("soundTitle__description") },
  ],
  rules: {
    author: [probed("username")],
    description: [probed("description")],
    publisher: [always("SoundCloud")],
  },
};
