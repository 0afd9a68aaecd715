/** `data.insights`: the parts the request asked for, computed beside the rest of the payload. */
import type { LighthouseOptions, LighthouseRunner } from "./lighthouse.ts";
import type { TechnologyDetector } from "./technologies.ts";
import type { ProxySpec } from "../fetch/types.ts";

export interface InsightsRequest {
  technologies: boolean;
  lighthouse: LighthouseOptions | null;
}

export async function collectInsights(
  wanted: InsightsRequest,
  page: {
    /** The service's detector and Lighthouse runner. */
    services: { technologies: TechnologyDetector; lighthouse: LighthouseRunner };
    url: string;
    /** The target's response headers, set-cookie included. */
    headers: Record<string, string>;
    /** The page's HTML (rendered when the page was rendered); null for a file target. */
    html: string | null;
    signal: AbortSignal;
    timeoutMs: number;
    /** The request's `proxy=`, for Lighthouse's own Chromium. */
    proxy: ProxySpec | null;
  },
): Promise<Record<string, unknown>> {
  const { services, url, signal } = page;
  const [technologies, lighthouse] = await Promise.all([
    wanted.technologies
      ? services.technologies.detect({ url, headers: page.headers, html: page.html ?? "" }, {
        signal,
      })
      : undefined,
    wanted.lighthouse
      ? services.lighthouse.run(url, {
        options: wanted.lighthouse,
        signal,
        timeoutMs: page.timeoutMs,
        proxy: page.proxy,
      })
      : undefined,
  ]);
  const insights: Record<string, unknown> = {};
  if (technologies) insights.technologies = technologies;
  if (lighthouse) insights.lighthouse = lighthouse;
  return insights;
}
