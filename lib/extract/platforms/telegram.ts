/**
 * Telegram public posts (t.me/<channel>/<post>). The page names the channel (og:title) and
 * shows its picture (og:image, the logo); the post's date and image are only in the embed
 * widget (t.me/<channel>/<post>?embed=1), fetched as the platform's endpoint.
 */
import { LinearParser } from "../stream/html_parser.ts";
import { meta } from "../fields/rules.ts";
import { always, fromEndpoint, hostIs } from "./helpers.ts";
import type { Platform, PlatformData } from "./platform.ts";

const POST = /^\/([A-Za-z0-9_]{3,64})\/(\d+)\/?$/;
const IMAGE_CLASSES = [
  "link_preview_image",
  "link_preview_right_image",
  "tgme_widget_message_photo_wrap",
];

/**
 * The first url(...) of a style attribute's background-image. The parentheses' content is read
 * up to the next parenthesis, then unquoted: a lazy match with a trailing `\s*\)` backtracked
 * over every space of a long run, quadratic in it.
 */
export function backgroundUrl(style: string): string | undefined {
  const inner = /background-image\s*:\s*url\(([^()]*)\)/i.exec(style)?.[1]?.trim();
  if (!inner) return undefined;
  const quote = inner[0];
  const quoted = (quote === '"' || quote === "'") && inner.length > 1 && inner.endsWith(quote);
  return (quoted ? inner.slice(1, -1) : inner) || undefined;
}

/** The widget's post date (<time datetime> of the message date) and image. */
function readWidget(html: string): PlatformData | null {
  let date: string | undefined;
  let image: string | undefined;
  let inDate = 0;
  let depth = 0;
  const parser = new LinearParser({
    onopentag(tag, a) {
      depth++;
      const classes = (a.class ?? "").split(/\s+/);
      if (classes.includes("tgme_widget_message_date")) inDate = depth;
      if (
        date === undefined && tag === "time" && a.datetime &&
        (inDate || classes.includes("datetime"))
      ) {
        date = a.datetime;
      }
      if (image === undefined && a.style && IMAGE_CLASSES.some((c) => classes.includes(c))) {
        image = backgroundUrl(a.style);
      }
    },
    onclosetag() {
      if (inDate === depth) inDate = 0;
      depth--;
    },
  }, { decodeEntities: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return date === undefined && image === undefined ? null : { date, image };
}

export const telegram: Platform = {
  name: "telegram",
  test: (url) => hostIs(url, "t.me", "telegram.me"),
  rules: {
    author: [meta("og:title")],
    logo: [meta("og:image")],
    image: [fromEndpoint("image")],
    date: [fromEndpoint("date")],
    publisher: [always("Telegram")],
  },
  endpoint: {
    url(page) {
      const m = POST.exec(page.pathname);
      return m ? `https://t.me/${m[1]}/${m[2]}?embed=1&mode=tme` : null;
    },
    accept: "text/html",
    read: (body) => readWidget(body),
  },
};
