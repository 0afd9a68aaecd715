/**
 * The target's own provider's embed, made safe to pass on. Consumers that list linkpeek as a
 * provider trust its HTML (WordPress inserts a registered provider's HTML unfiltered), while
 * the provider's HTML is chosen by whatever page was asked about. So nothing of it is copied
 * as markup: an embed that is an <iframe> is rebuilt from its http(s) src and a few checked
 * attributes; any other embed (a blockquote and a widget script, say) runs in a sandboxed
 * srcdoc frame, an opaque origin that cannot reach the consumer's page.
 */
import { LinearParser } from "../extract/stream/html_parser.ts";
import { type Box, escape, fit, httpUrl, pixels } from "./_markup.ts";

export interface Limits {
  maxWidth: number | null;
  maxHeight: number | null;
}

export interface SafeEmbed extends Box {
  html: string;
}

/** For a frame whose provider names no size. */
export const DEFAULT_FRAME: Box = { width: 600, height: 400 };

/** Permissions-Policy features a media embed may ask for; any other is dropped. */
const FEATURES = new Set([
  "accelerometer",
  "autoplay",
  "clipboard-write",
  "encrypted-media",
  "fullscreen",
  "gyroscope",
  "picture-in-picture",
  "web-share",
]);

/** Referrer policies an embed may keep: none that sends the consumer's full URL cross-origin. */
const REFERRER_POLICIES = new Set([
  "no-referrer",
  "origin",
  "origin-when-cross-origin",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
]);

/** The frame's size: the provider's, scaled to the limits; a missing side from the limits. */
function frameBox(width: number | null, height: number | null, limits: Limits): Box {
  if (width && height) return fit({ width, height }, limits);
  return {
    width: Math.min(width ?? limits.maxWidth ?? DEFAULT_FRAME.width, limits.maxWidth ?? Infinity),
    height: Math.min(
      height ?? limits.maxHeight ?? DEFAULT_FRAME.height,
      limits.maxHeight ?? Infinity,
    ),
  };
}

/** The first <iframe> with an http(s) src, its attributes as the parser decoded them. */
function firstFrame(html: string, base: string): Record<string, string> | null {
  let found: Record<string, string> | null = null;
  const parser = new LinearParser({
    onopentag(name, attribs) {
      if (name === "iframe" && !found && httpUrl(attribs.src, base)) {
        found = { ...attribs, src: httpUrl(attribs.src, base)! };
        parser.pause();
      }
    },
  }, { lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return found;
}

function attributes(pairs: Record<string, string | number | null>): string {
  return Object.entries(pairs)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => value === "" ? ` ${name}` : ` ${name}="${escape(String(value))}"`)
    .join("");
}

function allowList(value: string | undefined): string | null {
  const kept = (value ?? "").split(";").map((part) => part.trim().split(/\s+/)[0]!.toLowerCase())
    .filter((feature) => FEATURES.has(feature));
  return kept.length ? [...new Set(kept)].join("; ") : null;
}

/**
 * The provider's `html` as linkpeek passes it on, sized to the limits; `width` and `height` are
 * the provider's own numbers, used where the markup names none.
 */
export function safeEmbedHtml(
  html: string,
  options: Limits & {
    providerUrl: string;
    width: number | null;
    height: number | null;
    title: string | null;
  },
): SafeEmbed {
  const frame = firstFrame(html, options.providerUrl);
  if (frame) {
    const box = frameBox(
      pixels(frame.width) ?? options.width,
      pixels(frame.height) ?? options.height,
      options,
    );
    const allow = allowList(frame.allow);
    const policy = frame.referrerpolicy?.trim().toLowerCase() ?? "";
    const markup = `<iframe${
      attributes({
        src: frame.src!,
        width: box.width,
        height: box.height,
        title: frame.title?.trim() || options.title || "Embedded content",
        allow,
        allowfullscreen: "allowfullscreen" in frame || allow?.includes("fullscreen") ? "" : null,
        referrerpolicy: REFERRER_POLICIES.has(policy) ? policy : null,
        loading: "lazy",
        style: "border:0;max-width:100%",
      })
    }></iframe>`;
    return { html: markup, ...box };
  }
  const box = frameBox(options.width, options.height, options);
  // Relative URLs in the provider's markup resolve against the provider, not the consumer.
  const document = `<!doctype html><html><head><meta charset="utf-8">` +
    `<base href="${escape(options.providerUrl)}" target="_blank"></head>` +
    `<body style="margin:0">${html}</body></html>`;
  const markup = `<iframe${
    attributes({
      sandbox: "allow-scripts allow-popups allow-popups-to-escape-sandbox",
      srcdoc: document,
      width: box.width,
      height: box.height,
      title: options.title || "Embedded content",
      loading: "lazy",
      style: "border:0;max-width:100%",
    })
  }></iframe>`;
  return { html: markup, ...box };
}
