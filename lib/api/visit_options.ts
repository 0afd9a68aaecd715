import type { VisitOptions, WaitUntil } from "../browser/types.ts";
import type { Params } from "../params/mod.ts";
import { basicAuth } from "../util/http.ts";
import { type CustomRules, evaluateSources } from "../extract/custom/mod.ts";

/**
 * Maps the request's browser-related parameters onto one page visit. `headers.*` go along only
 * while the page visited is on the target's own origin: after a cross-origin redirect the
 * fetcher dropped them, and the browser must not hand them to the new origin either.
 */
export function visitOptions(
  params: Params,
  visit: { html: boolean; target: URL; url: string },
): VisitOptions {
  const { html } = visit;
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
    modules: page.modules,
    mediaType: page.mediaType,
    adblock: page.adblock,
    proxy: params.proxy ?? undefined,
    headers: new URL(visit.url).origin === visit.target.origin
      ? withUserinfo(params.headers, visit.target)
      : undefined,
  };
}

/** Userinfo in the target URL becomes Basic auth, as the fetcher sends it (same origin only). */
export function withUserinfo(headers: Record<string, string>, target: URL): Record<string, string> {
  const authorization = headers.authorization ? null : basicAuth(target);
  return authorization ? { ...headers, authorization } : headers;
}

/** Caller code the visit runs in the page: `data.*.evaluate` rules and `function`. */
export function pageCode(
  params: Params,
  page: { rules: CustomRules | null; target: URL; startedAt: number; requestTimeoutMs: number },
): Pick<VisitOptions, "evaluate" | "function" | "timeoutMs"> {
  const evaluate = evaluateSources(page.rules);
  if (!evaluate.length && params.function === null) return {};
  // Caller code gets what is left of the request's time, less a margin to answer with its
  // result (a visit's own deadline would outlast the request's).
  const total = params.timeoutMs ?? page.requestTimeoutMs;
  return {
    timeoutMs: Math.max(1, total - (performance.now() - page.startedAt)),
    evaluate: evaluate.length ? evaluate : undefined,
    function: params.function === null
      ? undefined
      : { source: params.function, argument: functionArgument(params, page.target) },
  };
}

/**
 * The function's argument: the query's other parameters as an object (Microlink's shape),
 * those linkpeek does not define as they were given (Microlink forwards them), the target URL
 * without userinfo, and never `headers.*` (they may be credentials).
 */
function functionArgument(params: Params, target: URL): Record<string, unknown> {
  const argument: Record<string, unknown> = structuredClone(params.forwarded);
  for (const [path, json] of params.canonical) {
    const names = path.split(".");
    if (names[0] === "headers" || names[0] === "function" || path.startsWith("?")) continue;
    // `meta=false` reads as it was written, not as the parser's `meta.enabled`.
    if (names.at(-1) === "enabled" && names.length > 1) names.pop();
    let node = argument;
    for (const name of names.slice(0, -1)) {
      const next = Object.hasOwn(node, name) ? node[name] : undefined;
      node = (next !== null && typeof next === "object" ? next : node[name] = {}) as Record<
        string,
        unknown
      >;
    }
    node[names.at(-1)!] = JSON.parse(json);
  }
  const url = new URL(target.href);
  url.username = url.password = "";
  argument.url = url.href;
  return argument;
}
