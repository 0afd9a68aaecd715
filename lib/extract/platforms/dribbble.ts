/**
 * Dribbble: shots and profiles. The meta description reads "Name | Bio | Connect with them on
 * Dribbble...": the name is the author, the middle the description.
 */
import { ld, type Rule } from "../fields/rules.ts";
import { always, hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";

function parts(description: string | undefined): string[] {
  if (!description?.includes(" | ")) return [];
  const all = description.split(" | ");
  if (all.length > 1 && all[all.length - 1]!.includes("Connect with them on Dribbble")) all.pop();
  return all;
}

const metaParts = (pick: (p: string[]) => string | undefined): Rule => ({ rec }) =>
  pick(parts(rec.meta.get("description")?.[0]));

export const dribbble: Platform = {
  name: "dribbble",
  test: (url) => hostIs(url, "dribbble.com"),
  rules: {
    author: [
      ld("creator.name"),
      metaParts((p) => p[0]),
      ({ rec }) => rec.texts.get("h1")?.[0],
    ],
    description: [metaParts((p) => p.length > 1 ? p.slice(1).join(" | ") : undefined)],
    date: [ld("uploadDate")],
    publisher: [always("Dribbble")],
  },
};
