import { ApiError } from "../util/errors.ts";
import { DEFAULT_TTL_MS } from "../cache/ttl.ts";
import { isCredentialHeader } from "../cache/key.ts";
import type { PdfOptions, ScreenshotOptions, ViewportOptions } from "../browser/types.ts";
import { DEFAULT_FIELDS, MEDIA_FIELDS, type MediaField } from "../util/payload_types.ts";
import { applyDefaults, coerce } from "./coerce.ts";
import { parseProxy, type ProxySpec } from "../fetch/proxy_client.ts";
import type { LighthouseOptions } from "../insights/lighthouse_types.ts";
import { sanitizeFilename } from "./filename.ts";
import { functionSource } from "./function_code.ts";
import {
  FORBIDDEN_PARAMS,
  NOT_IN_CACHE_KEY,
  PARAMS,
  type QueryValues,
  SCREENSHOT_OPTIONS,
} from "./schema.ts";
import { buildTree, canonicalKids, findKid, type QueryNode, toCamel, toPlain } from "./tree.ts";

/** The parsed shapes are the browser's own option types (ScreenshotOptions, PdfOptions). */
export type ScreenshotParams = ScreenshotOptions;
/** `margin` arrives as a string or a {top, right, bottom, left} tree of strings. */
export type PdfParams = PdfOptions;

/** Browser page options shared by screenshot, pdf and prerender. */
/** The parameters that shape how the browser loads the page: the members of PageParams. */
export const PAGE_OPTIONS = [
  "waitUntil",
  "waitForSelector",
  "waitForTimeout",
  "viewport",
  "device",
  "colorScheme",
  "javascript",
  "animations",
  "mediaType",
  "click",
  "scroll",
  "styles",
  "scripts",
  "modules",
  "adblock",
] as const satisfies readonly (keyof PageParams)[];

export interface PageParams {
  waitUntil?: string[];
  waitForSelector?: string;
  waitForTimeout?: number;
  viewport?: ViewportOptions;
  device?: string;
  colorScheme?: "light" | "dark" | "no-preference";
  javascript?: boolean;
  animations?: boolean;
  mediaType?: "screen" | "print";
  click?: string[];
  scroll?: string;
  styles?: string[];
  scripts?: string[];
  modules?: string[];
  adblock?: boolean;
}

/** Parameters read as they are (their type and default come from their definition, PARAMS). */
type AsDefined =
  | "url"
  | "embed"
  | "data"
  | "prerender"
  | "palette"
  | "audio"
  | "video"
  | "markdown"
  | "text"
  | "frontmatter"
  | "force"
  | "signature"
  | "retry"
  | "function";

export interface Params extends Pick<QueryValues, AsDefined> {
  /** Caller headers for the target (lower-case names), the API key removed. */
  headers: Record<string, string>;
  /** Per media field: verify (probe) its URLs. */
  ping: Record<MediaField, boolean>;
  screenshot: ScreenshotParams | null;
  pdf: PdfParams | null;
  page: PageParams;
  /** false: no extraction; otherwise the default fields kept. */
  meta: false | Set<string>;
  filter: string[] | null;
  iframe: { maxWidth?: number; maxHeight?: number } | null;
  ttlMs: QueryValues["ttl"];
  staleTtlMs: QueryValues["staleTtl"];
  timeoutMs: QueryValues["timeout"];
  /** `proxy` (pro only), its credentials kept out of the canonical pairs. */
  proxy: ProxySpec | null;
  /** `insights`: what data.insights holds; null without it. */
  insights: { technologies: boolean; lighthouse: LighthouseOptions | null } | null;
  /** `filename`, sanitised: the hosted screenshot's and pdf's name, without extension. */
  filename: string | null;
  /**
   * Query parameters linkpeek does not define, as given (dotted names nested): Microlink
   * forwards them to `function`. Empty without `function`.
   */
  forwarded: Record<string, unknown>;
  /** Sorted [name, value] pairs of everything that changes the answer (for the cache key). */
  canonical: [string, string][];
}

/**
 * `headers.apiKey` in any spelling (`apikey`, `APIKey`, `api_key`, `X-API-KEY`, `xApiKey` ...):
 * the pro API key, read by queryApiKey, never forwarded. Case and `-`/`_` do not count.
 */
export function isApiKeyHeader(name: string): boolean {
  const bare = name.replace(/[-_]/g, "").toLowerCase();
  return bare === "apikey" || bare === "xapikey";
}

type Values = Record<string, unknown>;

function readAll(root: QueryNode): Values {
  const values: Values = {};
  // Walk what the query has (a few names), not every known parameter.
  for (const [name, node] of canonicalKids(root)) {
    const def = Object.hasOwn(PARAMS, name) ? PARAMS[name] : undefined;
    if (def) values[name] = coerce(node, def, name);
  }
  return values;
}

/** Top-level names the table does not define, their subtrees as plain data. */
function unknownParams(root: QueryNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, node] of root.kids) {
    if (Object.hasOwn(PARAMS, toCamel(name))) continue;
    // Defined, not assigned: a parameter named `__proto__` must not set the object's prototype.
    Object.defineProperty(out, name, {
      value: toPlain(node),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function refuseFileWriters(root: QueryNode): void {
  for (const path of FORBIDDEN_PARAMS) {
    let node: QueryNode | undefined = root;
    for (const segment of path.split(".")) node = node && findKid(node, toCamel(segment));
    if (node) {
      throw new ApiError(
        "EINVALQUERY",
        `The parameter \`${path}\` is not allowed: linkpeek never writes files for a request.`,
      );
    }
  }
}

function screenshotParams(values: Values): ScreenshotParams | null {
  const nested = (values.screenshot ?? {}) as Values & { enabled?: boolean };
  const options: Values = {};
  for (const name of Object.keys(SCREENSHOT_OPTIONS)) {
    const value = nested[name] ?? values[name];
    if (value !== undefined) options[name] = value;
  }
  // screenshot.animated=true (or any of its options) asks for the recording, and so a screenshot.
  const animated = nested.animated as (Values & { enabled?: boolean }) | undefined;
  if (animated !== undefined && animated.enabled !== false) {
    const { enabled: _, ...recording } = animated;
    options.animated = recording;
  }
  const on = nested.enabled === true || (nested.enabled === undefined &&
    (options.element !== undefined || options.overlay !== undefined ||
      options.codeScheme !== undefined || options.animated !== undefined));
  if (nested.enabled === false || !on) return null;
  return options as ScreenshotParams;
}

function toggles(value: unknown, fields: readonly string[]): Record<string, boolean> {
  const object = (value ?? {}) as Values & { enabled?: boolean };
  const all = object.enabled ?? true;
  return Object.fromEntries(fields.map((f) => [f, (object[f] as boolean | undefined) ?? all]));
}

function metaParam(value: unknown): false | Set<string> {
  const object = (value ?? {}) as Values & { enabled?: boolean };
  const explicit = DEFAULT_FIELDS.filter((f) => typeof object[f] === "boolean");
  if (object.enabled === false && explicit.length === 0) return false;
  // meta.title=true alone keeps only the fields named true.
  const anyTrue = explicit.some((f) => object[f] === true);
  const base = anyTrue ? false : (object.enabled ?? true);
  return new Set(DEFAULT_FIELDS.filter((f) => (object[f] as boolean | undefined) ?? base));
}

/**
 * Microlink: with `insights`, `technologies` and `lighthouse` are each on unless set to false
 * (both default to true), so `insights.technologies=true` alone keeps Lighthouse on.
 */
function insightsParam(value: unknown): Params["insights"] {
  const object = (value ?? {}) as Values & { enabled?: boolean };
  if (object.enabled === false || value === undefined) return null;
  const lighthouse = object.lighthouse as (LighthouseOptions & { enabled?: boolean }) | undefined;
  const { enabled: lighthouseOn, ...options } = lighthouse ?? {};
  const insights = {
    technologies: (object.technologies as boolean | undefined) ?? true,
    lighthouse: (lighthouseOn ?? true) ? matchedScreen(options) : null,
  };
  return insights.technologies || insights.lighthouse ? insights : null;
}

/**
 * Lighthouse refuses a `formFactor` its screen emulation contradicts: a contradiction is the
 * caller's (EINVALQUERY), and `formFactor` alone sets `screenEmulation.mobile` to match.
 */
function matchedScreen(options: LighthouseOptions): LighthouseOptions {
  const { formFactor, screenEmulation } = options;
  if (!formFactor) return options;
  const mobile = formFactor === "mobile";
  if (screenEmulation?.mobile !== undefined && screenEmulation.mobile !== mobile) {
    throw new ApiError(
      "EINVALQUERY",
      `The parameter \`insights.lighthouse.screenEmulation.mobile\` must be ${mobile} with ` +
        `\`formFactor=${formFactor}\`, as Lighthouse requires.`,
    );
  }
  return { ...options, screenEmulation: { ...screenEmulation, mobile } };
}

/** `filter=title,image.url`: comma-separated dot paths of data. */
function filterPaths(text: string): string[] {
  const paths = text.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = paths.find((path) => !/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(path));
  if (paths.length === 0 || bad !== undefined) {
    throw new ApiError(
      "EINVALQUERY",
      `The parameter \`filter\` must list field paths like title,image.url, got "${text}".`,
    );
  }
  return paths;
}

function canonicalPairs(values: Values, forwarded: Values): [string, string][] {
  const pairs: [string, string][] = [];
  const walk = (prefix: string, value: unknown) => {
    if (value === undefined) return;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v);
    } else {
      pairs.push([prefix, JSON.stringify(value)]);
    }
  };
  for (const [name, value] of Object.entries(values)) {
    if (NOT_IN_CACHE_KEY.includes(name)) continue;
    if (name === "headers") {
      // Credentials never enter the key in clear: the cache folds them in as an HMAC.
      const plain = value as Record<string, string>;
      for (const [header, text] of Object.entries(plain)) {
        if (!isCredentialHeader(header)) walk(`headers.${header}`, text);
      }
    } else {
      walk(name, value);
    }
  }
  // A prefix no defined parameter has keeps them apart from defined names.
  for (const [name, value] of Object.entries(forwarded)) walk(`?${name}`, value);
  return pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * `embed=markdown`, `embed=text`, `embed=screenshot.url`, `embed=pdf.url`, `embed=iframe.html`:
 * the field's feature is on unless
 * the query turns it off, so the embed has something to answer with. Before the cache key is
 * made: with and without the explicit switch, it is the same request.
 */
function enableEmbeddedFeature(values: Values): void {
  const feature = typeof values.embed === "string" ? values.embed.split(".")[0] : undefined;
  if (feature === "markdown") values.markdown ??= true;
  if (feature === "text") values.text ??= true;
  if (feature === "screenshot" || feature === "pdf" || feature === "iframe") {
    const nested = (values[feature] ?? {}) as Values;
    if (nested.enabled === undefined) values[feature] = { ...nested, enabled: true };
  }
}

/** The query string to typed parameters, or EINVALQUERY naming the parameter. */
export function parseParams(query: URLSearchParams, options: { maxTimeoutMs: number }): Params {
  const root = buildTree(query);
  refuseFileWriters(root);
  const given = readAll(root);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given.headers ?? {})) {
    if (!isApiKeyHeader(name)) headers[name] = value as string;
  }
  given.headers = headers;
  enableEmbeddedFeature(given);
  // They change what `function` answers, so they are part of its cache key; nothing else reads them.
  const forwarded = typeof given.function === "string" ? unknownParams(root) : {};
  const canonical = canonicalPairs(given, forwarded);
  const values = applyDefaults(given);

  const timeoutMs = values.timeout;
  if (timeoutMs !== null && timeoutMs > options.maxTimeoutMs) {
    throw new ApiError(
      "EINVALQUERY",
      `The parameter \`timeout\` must be at most ${options.maxTimeoutMs} ms, got ${timeoutMs} ms.`,
    );
  }
  const { staleTtl: staleTtlMs, ttl: ttlMs } = values;
  if (staleTtlMs !== null && staleTtlMs > (ttlMs ?? DEFAULT_TTL_MS)) {
    throw new ApiError(
      "EINVALSTTL",
      `The parameter \`staleTtl\` must be at most ttl (${
        ttlMs ?? DEFAULT_TTL_MS
      } ms), got ${staleTtlMs} ms.`,
    );
  }
  const { pdf, iframe } = values;
  const page: PageParams = {};
  for (const name of PAGE_OPTIONS) {
    if (values[name] !== undefined) (page as Values)[name] = values[name];
  }
  const withoutEnabled = <T extends object>(o: T & { enabled?: boolean }): T => {
    const { enabled: _enabled, ...rest } = o;
    return rest as T;
  };

  return {
    url: values.url,
    headers,
    ping: toggles(values.ping, MEDIA_FIELDS) as Record<MediaField, boolean>,
    screenshot: screenshotParams(values),
    pdf: pdf?.enabled ? withoutEnabled(pdf) : null,
    page,
    embed: values.embed,
    meta: metaParam(values.meta),
    filter: typeof values.filter === "string" ? filterPaths(values.filter) : null,
    data: values.data,
    prerender: values.prerender,
    iframe: iframe?.enabled ? withoutEnabled(iframe) : null,
    palette: values.palette,
    audio: values.audio,
    video: values.video,
    markdown: values.markdown,
    text: values.text,
    frontmatter: values.frontmatter,
    ttlMs,
    staleTtlMs,
    force: values.force,
    timeoutMs,
    signature: values.signature,
    proxy: typeof values.proxy === "string"
      ? parseProxy(
        values.proxy,
        (why) => new ApiError("EINVALPROXY", `The parameter \`proxy\` ${why}.`),
      )
      : null,
    retry: values.retry,
    insights: insightsParam(values.insights),
    function: typeof values.function === "string" ? functionSource(values.function) : null,
    filename: typeof values.filename === "string" ? sanitizeFilename(values.filename) : null,
    forwarded,
    canonical,
  };
}
