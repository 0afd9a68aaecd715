/**
 * The steps only some requests ask for: the oEmbed `iframe`, custom `data` rules with
 * `markdown` and `text` (one DOM parse on the worker pool), and `insights`.
 */
import type { VisitResult } from "../../browser/types.ts";
import type { DomResult, DomWork } from "../../extract/dom/work.ts";
import type { Extracted } from "../../extract/mod.ts";
import { collectInsights } from "../../insights/mod.ts";
import { fetchIframe, oembedEndpoint } from "../../oembed/mod.ts";
import { hasPageCode, type StepContext } from "./context.ts";
import { platformData } from "./fields.ts";

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
  return await context.timings.time(
    "extract",
    () => services.dom.run(domWork(context, page, evaluated), { signal }),
  );
}

/**
 * The default fields and the DOM work from one parse of the page, in one worker job (one copy
 * of the page sent, one answer): for requests where nothing waits on the fields alone
 * (fetchesFollowFields) and no browser computes rule values.
 */
export async function fieldsAndDomParts(
  context: StepContext,
  page: { html: string; url: string },
): Promise<DomResult & { extracted: Extracted }> {
  const { services, signal } = context;
  return await context.timings.time("extract", async () => {
    const fields = { fetched: await platformData(context, page.url) };
    const dom = await services.dom.run({ ...domWork(context, page), fields }, { signal });
    return { ...dom, extracted: dom.extracted! };
  });
}

function domWork(
  { params, rules }: StepContext,
  page: { html: string; url: string },
  evaluated?: unknown[],
): DomWork {
  return {
    html: page.html,
    url: page.url,
    rules,
    markdown: params.markdown,
    text: params.text,
    evaluated,
    // Microlink: whole-page Markdown rules open with front matter whenever `meta` is on.
    frontMatter: { markdown: params.frontmatter, wholePage: params.meta !== false },
  };
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
