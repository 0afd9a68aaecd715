import type { VisitOptions, WaitUntil } from "../browser/types.ts";
import type { Params } from "../params/mod.ts";

/** Maps the request's browser-related parameters onto one page visit. */
export function visitOptions(params: Params, html: boolean): VisitOptions {
  const page = params.page;
  const waitUntil = page.waitUntil?.filter((w): w is WaitUntil => w !== "auto");
  return {
    html,
    screenshot: params.screenshot ?? undefined,
    pdf: params.pdf ?? undefined,
    viewport: page.viewport,
    device: page.device,
    colorScheme: page.colorScheme === "no-preference" ? undefined : page.colorScheme,
    waitUntil: waitUntil?.length ? waitUntil : undefined,
    waitForSelector: page.waitForSelector,
    waitForTimeout: page.waitForTimeout,
    javascript: page.javascript,
    animations: page.animations,
    click: page.click,
    scroll: page.scroll,
    styles: page.styles,
    scripts: page.scripts,
    mediaType: page.mediaType,
    headers: params.headers,
  };
}
