/**
 * Amazon stores (amazon.com, .co.uk, .de... and amzn.to, a.co links): the product's title,
 * byline or brand, its main image in the largest size the page links, and the language of the
 * store's country.
 */
import type { Rule } from "../fields/rules.ts";
import { always, byClass, byId, probed } from "./helpers.ts";
import type { Platform } from "./platform.ts";

/** Store language by the host's last labels. */
const STORE_LANGUAGES: Record<string, string> = {
  "ca": "en",
  "cn": "zh",
  "co.jp": "ja",
  "co.uk": "en",
  "com.mx": "es",
  "com": "en",
  "de": "de",
  "es": "es",
  "fr": "fr",
  "in": "en",
  "it": "it",
};

const HOST = /(?:^|\.)(?:amazon\.[a-z.]+|amzn\.[a-z]+|a\.co)$/i;

const storeLanguage: Rule = ({ url }) => {
  const m = /\.amazon\.(.+)$/i.exec(new URL(url).hostname) ??
    /^amazon\.(.+)$/i.exec(new URL(url).hostname);
  return m ? STORE_LANGUAGES[m[1]!.toLowerCase()] : undefined;
};

export const amazon: Platform = {
  name: "amazon",
  test: (url) => HOST.test(url.hostname),
  probes: () => [
    { name: "productTitle", match: byId("productTitle") },
    { name: "btAsinTitle", match: byId("btAsinTitle") },
    { name: "largeH1", match: (tag, a) => tag === "h1" && byClass("a-size-large")(tag, a) },
    { name: "itemName", match: byId("item_name") },
    { name: "contributor", match: byClass("contributorNameID") },
    { name: "byline", match: byId("bylineInfo") },
    { name: "brand", match: byId("brand") },
    { name: "hiresImage", match: byClass("a-dynamic-image"), attr: "data-old-hires" },
    { name: "dynamicImage", match: byClass("a-dynamic-image"), attr: "src" },
  ],
  rules: {
    title: [probed("productTitle"), probed("btAsinTitle"), probed("largeH1"), probed("itemName")],
    author: [probed("contributor"), probed("byline"), probed("brand")],
    image: [probed("hiresImage"), probed("dynamicImage")],
    lang: [storeLanguage],
    publisher: [always("Amazon")],
  },
};
