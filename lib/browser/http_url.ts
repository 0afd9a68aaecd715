/**
 * The visit's answer names the last http(s) page the main frame showed: a page may navigate
 * itself to `about:blank`, a `blob:` or a `data:` document, which are not the page's address.
 */
import type { Page } from "puppeteer-core";
import { httpUrl } from "../util/target_url.ts";

/** Follows the main frame's documents; the returned function gives the last http(s) URL. */
export function lastHttpUrl(page: Page, requested: string): () => string {
  let last = requested;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && httpUrl(frame.url())) last = frame.url();
  });
  return () => httpUrl(page.url()) ? page.url() : last;
}
