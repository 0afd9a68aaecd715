/**
 * Reddit: posts and communities. The <title> ("Post title : r/community") and meta description
 * are the post's own; og:title and og:description are generic invitations.
 */
import { meta } from "../fields/rules.ts";
import { always, hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";

export const reddit: Platform = {
  name: "reddit",
  test: (url) => hostIs(url, "reddit.com", "redd.it"),
  rules: {
    title: [({ rec }) => rec.title],
    description: [meta("description")],
    publisher: [always("Reddit")],
  },
};
