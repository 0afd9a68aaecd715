/**
 * Instagram: posts, reels and profiles. twitter:title holds Instagram's own title ("Name
 * (@handle) • Instagram video"); og:title starts with the author's name ("Name on Instagram:
 * ...", "Name (@handle) • Instagram photos and videos"); og:description holds the post's date
 * ("... - handle on May 24, 2021: ...").
 */
import { meta, type Rule } from "../fields/rules.ts";
import { before, hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";

const author: Rule = ({ rec }) => {
  const og = rec.meta.get("og:title")?.[0];
  return og === undefined ? undefined : before(og, " on Instagram", " (@");
};

const postDate: Rule = ({ rec }) => {
  const m = / on ([A-Z][a-z]+ \d{1,2}, \d{4})\b/.exec(rec.meta.get("og:description")?.[0] ?? "");
  return m ? `${m[1]} GMT` : undefined;
};

export const instagram: Platform = {
  name: "instagram",
  test: (url) => hostIs(url, "instagram.com"),
  rules: {
    title: [meta("twitter:title")],
    author: [author],
    date: [postDate],
  },
};
