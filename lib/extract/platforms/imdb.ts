/**
 * IMDb: titles and names. JSON-LD holds the work: its name, director or creator, and release
 * date (films predate the web, so the date is a work's date).
 */
import { workDate } from "../fields/date.ts";
import { ld, meta } from "../fields/rules.ts";
import { always, hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";

export const imdb: Platform = {
  name: "imdb",
  test: (url) => hostIs(url, "imdb.com"),
  rules: {
    title: [ld("name")],
    author: [ld("director.name"), ld("creator.name")],
    description: [meta("description"), ld("description")],
    date: [workDate(ld("datePublished"))],
    publisher: [always("IMDb")],
  },
};
