/**
 * The steps only some requests ask for: the oEmbed `iframe`, custom `data` rules with
 * `markdown` and `text` (one DOM parse on the worker pool), and `insights`.
 */
import type { VisitResult } from "../../browser/types.ts";
import type { DomResult } from "../../extract/dom/work.ts";
import type { Extracted } from "../../extract/mod.ts";
import { collectInsights } from "../../insights/mod.ts";
import { fetchIframe, oembedEndpoint } from "../../oembed/mod.ts";
import { hasPageCode, type StepContext } from "./context.ts";

export async function iframeOf(
  context: StepContext,
  extracted: Extracted,
  pageUrl: string,
): Promise<unknown> {
  const { params, services, signal } = context;
  return await context.timings.time("probe", async () => {
    const endpoint = await oembedEndpoint({ discovered: extracted.oembed, url: pageUrl });
    return endpoint
      ? await fetchIframe(endpoint, { fetcher: services.fetcher, ...params.iframe!, signal })
      : null;
  });
}

export async function domParts(
  context: StepContext,
  page: { html: string; url: string },
  visit: Promise<VisitResult> | null,
): Promise<DomResult> {
  const { params, rules, services, signal } = context;
  // `evaluate` rules wait for the values the browser computed in the page.
  const evaluated = visit && hasPageCode(params, rules)
    ? (await visit).evaluated?.map((e) => e.isFulfilled ? e.value : null)
    : undefined;
  return await context.timings.time("extract", () =>
    services.dom.run({
      html: page.html,
      url: page.url,
      rules,
      markdown: params.markdown,
      text: params.text,
      evaluated,
      // Microlink: whole-page Markdown rules open with front matter whenever `meta` is on.
      frontMatter: { markdown: params.frontmatter, wholePage: params.meta !== false },
    }, { signal }));
}

export async function insightsOf(
  context: StepContext,
  page: { url: string; headers: Record<string, string>; html: string | null },
): Promise<unknown> {
  const { params, services, signal } = context;
  const timeoutMs = params.timeoutMs ?? services.config.requestTimeoutMs;
  return await context.timings.time(
    "extract",
    () =>
      collectInsights(params.insights!, {
        services,
        ...page,
        signal,
        timeoutMs,
        proxy: params.proxy,
      }),
  );
}
