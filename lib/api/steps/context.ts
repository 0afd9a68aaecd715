/** What every step of buildPayload reads: the request, its services, its deadline, its clock. */
import type { CustomRules } from "../../extract/custom/mod.ts";
import type { TargetHeaders } from "../../fetch/types.ts";
import type { Params } from "../../params/mod.ts";
import type { Services } from "../../services/mod.ts";
import type { Timings } from "../../util/server_timing.ts";
import type { VisitResult } from "../../browser/types.ts";
import type { ProbeBudget } from "../../media/_limit.ts";
import { pageCode, visitOptions, withUserinfo } from "../visit_options.ts";

/** What buildPayload is given. */
export interface PayloadContext {
  params: Params;
  target: URL;
  services: Services;
  signal: AbortSignal;
  /** The request carried credentials: assets get private, unguessable ids. */
  credentialed: boolean;
  /** The `data` custom rules, already checked (by prepare). */
  rules: CustomRules | null;
  /** Where the time goes (server-timing); a fresh one when the caller does not keep it. */
  timings?: Timings;
}

/** What each step reads; with `proxy=`, `services.fetcher` goes through that proxy. */
export interface StepContext extends PayloadContext {
  timings: Timings;
  /** When buildPayload started (performance.now()): page code gets the time left. */
  startedAt: number;
  /** The request's media probes: the default fields' and the custom rules' share it. */
  probes: ProbeBudget;
}

/** Does any feature need the page's HTML? */
export function needsHtml(params: Params): boolean {
  return params.meta !== false || params.data !== null || params.markdown || params.text ||
    params.iframe !== null || params.insights !== null;
}

/** The DOM work (markdown, text, custom rules) reads the whole page, not only its head. */
export function wantsDomWork({ params, rules }: Pick<StepContext, "params" | "rules">): boolean {
  return params.markdown || params.text || rules !== null;
}

export function wantsBrowser(params: Params, rules: CustomRules | null): boolean {
  return params.screenshot !== null || params.pdf !== null || hasPageCode(params, rules);
}

/** `function` or an `evaluate` rule: code that runs in the page, so the browser visits it. */
export function hasPageCode(params: Params, rules: CustomRules | null): boolean {
  return params.function !== null ||
    Object.values(rules ?? {}).some((fallbacks) => fallbacks.some((rule) => rule.evaluate));
}

/** `headers.*` (and the URL's userinfo), for follow-up fetches of the target's own origin. */
export function targetHeaders({ params, target }: StepContext): TargetHeaders {
  return { origin: target.origin, headers: withUserinfo(params.headers, target) };
}

/** One browser visit of `url` with everything the parameters ask of it. */
export function startVisit(
  context: StepContext,
  url: string,
  visit: { html: boolean; awaiting?: "navigation" | "text" },
): Promise<VisitResult> {
  const { params, target, services } = context;
  return services.browser.visit(url, {
    ...visitOptions(params, { html: visit.html, target, url }),
    awaiting: visit.awaiting,
    ...pageCode(params, {
      rules: context.rules,
      target,
      startedAt: context.startedAt,
      requestTimeoutMs: services.config.requestTimeoutMs,
    }),
    signal: context.signal,
  });
}
