import { MAX_TTL_MS, MIN_TTL_MS } from "../cache/ttl.ts";
import { DEFAULT_FIELDS } from "../util/payload_types.ts";
import {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_OUTPUTS,
  LIGHTHOUSE_PRESETS,
} from "../insights/lighthouse_types.ts";
import { CODE_THEMES } from "../browser/code_themes.ts";
import { MAX_PDF_PAGES, PAGE_RANGES_PATTERN } from "../browser/pdf_pages.ts";
import type { ErrorCode } from "../util/errors.ts";
import { RULE_TYPES } from "../extract/custom/value_types.ts";

/**
 * Every query parameter as data, each defined once: its schema, its default, its description.
 * The parser (coerce, parseParams) walks these definitions, the type of what it reads
 * (QueryValues) is derived from them, and the OpenAPI document is generated from them.
 */
export type Schema =
  | { kind: "boolean" }
  /** `pattern`: a regular expression source the whole value must match. */
  | { kind: "string"; maxLength?: number; pattern?: string }
  | { kind: "integer"; min: number; max: number }
  | { kind: "number"; min: number; max: number }
  | { kind: "enum"; values: readonly string[] }
  /**
   * Milliseconds; accepts "1500", "10s", "5m", "2 hours", "1day" (see parseDuration), and the
   * named `aliases` (case-insensitive; null turns the feature off).
   */
  | {
    kind: "duration";
    min: number;
    max: number;
    aliases?: Readonly<Record<string, number | null>>;
  }
  /** A single value or index-dotted items (`click.0=a&click.1=b`). */
  | { kind: "list"; of: Schema }
  /**
   * Named members; with `boolean` the bare parameter may also be true/false. Other members are
   * ignored, or refused with `closed` (where a silently dropped one would mislead the caller).
   */
  | { kind: "object"; boolean?: boolean; closed?: boolean; props: Record<string, ParamDef> }
  /**
   * Free keys with string values (headers); keys are header names. At most `maxCount` of them,
   * each value at most `maxLength` characters.
   */
  | { kind: "headers"; maxCount: number; maxLength: number }
  /** Free-form tree (custom `data` rules), validated by its own module. */
  | { kind: "tree" }
  /** A string or a tree (e.g. pdf.margin=1cm or pdf.margin.top=1cm). */
  | { kind: "stringOrTree" };

export interface ParamDef {
  schema: Schema;
  description: string;
  example?: string;
  /** Microlink's code for an invalid value of this parameter; EINVALQUERY without one. */
  errorCode?: ErrorCode;
  /**
   * What the parameter reads as when the query does not name it (applied by applyDefaults);
   * without one it reads as undefined. null: "not given" is a value of its own.
   */
  default?: unknown;
}

/** The value a schema coerces to (as hono's validator infers its output from its schema). */
export type ValueOf<S> = S extends { kind: "boolean" } ? boolean
  : S extends { kind: "string" } ? string
  : S extends { kind: "integer" | "number" | "duration" } ? number
  : S extends { kind: "enum"; values: readonly (infer V)[] } ? V
  : S extends { kind: "list"; of: infer O } ? ValueOf<O>[]
  : S extends { kind: "object"; props: infer P } ?
      & { enabled?: boolean }
      & { [K in keyof P]?: P[K] extends { schema: infer C } ? ValueOf<C> : never }
  : S extends { kind: "headers" } ? Record<string, string>
  : S extends { kind: "stringOrTree" } ? string | Record<string, unknown>
  : unknown;

/** What one definition reads as: its value, or its default when the query does not name it. */
export type ParamValue<D> = D extends { schema: infer S; default: infer V }
  ? ValueOf<S> | (V extends null ? null : never)
  : D extends { schema: infer S } ? ValueOf<S> | undefined
  : never;

/** A CSS length as Chromium's printing takes it. */
const CSS_LENGTH = "^\\d+(\\.\\d+)?(px|in|cm|mm)$";

const bool = (description: string, example = "true") => ({
  schema: { kind: "boolean" } as const,
  description,
  example,
});
const str = (description: string, example?: string) => ({
  schema: { kind: "string", maxLength: 2048 } as const,
  description,
  example,
});
const strings = (description: string, example?: string) => ({
  schema: { kind: "list", of: { kind: "string", maxLength: 8192 } } as const,
  description,
  example,
});

const MEDIA_TOGGLES = {
  image: bool("Verify image URLs.", "false"),
  logo: bool("Verify logo URLs.", "false"),
  audio: bool("Verify audio URLs.", "false"),
  video: bool("Verify video URLs.", "false"),
};

const META_TOGGLES = Object.fromEntries(
  DEFAULT_FIELDS.map((
    field,
  ) => [field, bool(`Keep (true) or drop (false) data.${field}.`, "false")]),
);

const ms = (description: string) => ({
  schema: { kind: "integer", min: 0, max: 120_000 } as const,
  description,
  example: "1000",
});
const names = (description: string, example: string) => ({
  schema: { kind: "list", of: { kind: "string", maxLength: 128 } } as const,
  description,
  example,
});

/** `insights.lighthouse.*`: Microlink's preset and output, and Lighthouse settings passed on. */
const LIGHTHOUSE_SETTINGS = {
  preset: {
    schema: { kind: "enum", values: LIGHTHOUSE_PRESETS },
    description: "Lighthouse's config of that name (default: Lighthouse's default, mobile); " +
      "`mobile` is linkpeek's older name for `default`.",
    example: "desktop",
  },
  output: {
    schema: { kind: "enum", values: LIGHTHOUSE_OUTPUTS },
    description: "The report as an object (json, default), or Lighthouse's html or csv text.",
    example: "html",
  },
  onlyCategories: {
    schema: { kind: "list", of: { kind: "enum", values: LIGHTHOUSE_CATEGORIES } },
    description: "Audit only these categories.",
    example: "accessibility",
  },
  onlyAudits: names("Run only these audits (by id).", "first-contentful-paint"),
  skipAudits: names("Skip these audits (by id).", "screenshot-thumbnails"),
  formFactor: {
    schema: { kind: "enum", values: ["mobile", "desktop"] },
    description: "Lighthouse's formFactor setting (set screenEmulation.mobile to match).",
    example: "desktop",
  },
  throttlingMethod: {
    schema: { kind: "enum", values: ["simulate", "devtools", "provided"] },
    description: "Lighthouse's throttlingMethod setting.",
    example: "provided",
  },
  throttling: {
    schema: {
      kind: "object",
      closed: true,
      props: Object.fromEntries(
        [
          "rttMs",
          "throughputKbps",
          "requestLatencyMs",
          "downloadThroughputKbps",
          "uploadThroughputKbps",
          "cpuSlowdownMultiplier",
        ].map((name) => [name, {
          schema: { kind: "number", min: 0, max: 1_000_000 } as const,
          description: `Lighthouse's throttling.${name}.`,
        }]),
      ),
    },
    description: "Lighthouse's throttling settings.",
  },
  screenEmulation: {
    schema: {
      kind: "object",
      closed: true,
      props: {
        mobile: { schema: { kind: "boolean" }, description: "Emulate a mobile screen." },
        width: { schema: { kind: "integer", min: 1, max: 8192 }, description: "CSS pixels." },
        height: { schema: { kind: "integer", min: 1, max: 8192 }, description: "CSS pixels." },
        deviceScaleFactor: {
          schema: { kind: "number", min: 0.1, max: 4 },
          description: "Device pixel ratio.",
        },
        disabled: { schema: { kind: "boolean" }, description: "No screen emulation." },
      },
    },
    description: "Lighthouse's screenEmulation settings.",
  },
  emulatedUserAgent: str("Lighthouse's emulatedUserAgent setting."),
  locale: {
    schema: { kind: "string", maxLength: 16, pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$" },
    description: "The report's language (Lighthouse's locale setting).",
    example: "es",
  },
  blockedUrlPatterns: names("URL patterns the audit's page may not load.", "*.woff2"),
  maxWaitForFcp: ms("Lighthouse's maxWaitForFcp, ms (the request's deadline bounds it)."),
  maxWaitForLoad: ms("Lighthouse's maxWaitForLoad, ms (the request's deadline bounds it)."),
  pauseAfterFcpMs: ms("Lighthouse's pauseAfterFcpMs."),
  pauseAfterLoadMs: ms("Lighthouse's pauseAfterLoadMs."),
  networkQuietThresholdMs: ms("Lighthouse's networkQuietThresholdMs."),
  cpuQuietThresholdMs: ms("Lighthouse's cpuQuietThresholdMs."),
} as const;

export const OVERLAY = {
  schema: {
    kind: "object",
    props: {
      browser: {
        schema: { kind: "enum", values: ["light", "dark"] },
        description: "Draw a browser window frame around the capture.",
        example: "dark",
      },
      background: {
        ...str(
          "Background around the frame: a CSS colour, a linear/radial gradient or an image URL.",
          "#c1c1c1",
        ),
        errorCode: "EINVALOVERLAYBG",
      },
    },
  },
  description: "Screenshot overlay: a browser frame and a background.",
} as const satisfies ParamDef;

/** Screenshot options, accepted under `screenshot.` and at the top level. */
export const SCREENSHOT_OPTIONS = {
  element: str("CSS selector of the element to capture; turns the screenshot on.", "#main"),
  overlay: OVERLAY,
  fullPage: bool("Capture the whole scrollable page."),
  type: {
    schema: { kind: "enum", values: ["png", "jpeg"] },
    description: "Image format.",
    example: "jpeg",
  },
  quality: {
    schema: { kind: "integer", min: 0, max: 100 },
    description: "JPEG quality.",
    example: "80",
  },
  omitBackground: bool("Transparent background instead of white (png)."),
  codeScheme: {
    schema: { kind: "enum", values: CODE_THEMES },
    description: "Theme of a JSON, plain-text or source-code target, captured syntax-highlighted " +
      "(highlight.js themes; default atom-one-dark).",
    example: "github",
  },
} as const satisfies Record<string, ParamDef>;

/** `screenshot.animated`, as Microlink documents it (only under `screenshot`, never top-level). */
const ANIMATED = {
  schema: {
    kind: "object",
    boolean: true,
    props: {
      duration: {
        schema: { kind: "duration", min: 500, max: 10_000 },
        description: "Recording length, ms or e.g. 5s (default 5000).",
        example: "3s",
      },
      fps: {
        schema: { kind: "integer", min: 1, max: 60 },
        description: "Frames per second (default 30).",
        example: "30",
      },
      type: {
        schema: { kind: "enum", values: ["mp4", "webm"] },
        description: "Container: mp4 (H.264, default) or webm (VP9).",
        example: "webm",
      },
    },
  },
  description: "Record a short video of the page from navigation on: data.screenshot.animated.",
  example: "true",
} as const satisfies ParamDef;

const VIEWPORT = {
  schema: {
    kind: "object",
    props: {
      width: {
        schema: { kind: "integer", min: 100, max: 3840 },
        description: "Viewport width in CSS pixels.",
        example: "1280",
      },
      height: {
        schema: { kind: "integer", min: 100, max: 2160 },
        description: "Viewport height in CSS pixels.",
        example: "800",
      },
      deviceScaleFactor: {
        schema: { kind: "number", min: 0.5, max: 3 },
        description: "Device pixel ratio.",
        example: "2",
      },
      isMobile: bool("Emulate a mobile device."),
      hasTouch: bool("Emulate touch support."),
      isLandscape: bool("Landscape orientation."),
    },
  },
  description: "Browser viewport. Members given replace the device's one by one (Microlink's " +
    "default device, Macbook Pro 13: 1280x800 at deviceScaleFactor 2, a 2560x1600 screenshot).",
} as const satisfies ParamDef;

const WAIT_UNTIL = {
  kind: "enum",
  values: ["load", "domcontentloaded", "networkidle0", "networkidle2", "auto"],
} as const satisfies Schema;

/**
 * The caller's headers to the target (`headers.*` and `x-api-header-*` together). A browser
 * sends about fifteen; hundreds are abuse, each one more line checked, kept, hashed into the
 * cache key and sent on every hop.
 */
export const MAX_CALLER_HEADERS = 32;

/** Top-level parameters. Names are canonical camelCase; snake_case is accepted too. */
const DEFINITIONS = {
  url: {
    schema: { kind: "string", maxLength: 8192 },
    description: "Target URL (http or https), percent-encoded as a URL component.",
    example: "https://example.com/article",
    default: null,
  },
  headers: {
    // A value holds a large cookie; servers commonly refuse a header line over 8 KB.
    schema: { kind: "headers", maxCount: MAX_CALLER_HEADERS, maxLength: 8192 },
    description:
      "Headers sent to the target's origin only (e.g. headers.user-agent, headers.cookie). headers.apiKey carries the pro API key and is never forwarded.",
    example: "headers.accept-language=es",
  },
  ping: {
    schema: { kind: "object", boolean: true, props: MEDIA_TOGGLES },
    description: "Verify every URL in data (default true); ping.<field>=false for one field.",
    example: "false",
  },
  screenshot: {
    schema: {
      kind: "object",
      boolean: true,
      props: { ...SCREENSHOT_OPTIONS, animated: ANIMATED },
    },
    description: "Add data.screenshot, an image hosted by the service.",
    example: "true",
  },
  ...SCREENSHOT_OPTIONS,
  embed: {
    ...str(
      "Answer with this field's content instead of JSON; turns on the feature the field comes " +
        "from (markdown, text, screenshot, pdf, iframe) unless it is set to false; iframe.html is " +
        "served as a page whose scripts run sandboxed, never as the service's origin.",
      "screenshot.url",
    ),
    default: null,
  },
  meta: {
    schema: { kind: "object", boolean: true, props: META_TOGGLES },
    description: "Extract the default fields (default true); meta.<field>=false drops one.",
    example: "false",
  },
  filter: str("Comma-separated field paths kept in data.", "title,image.url"),
  data: {
    schema: { kind: "tree" },
    description: "Custom rules: data.<name>.selector|selectorAll|attr|type, fallbacks by index, " +
      "nested rules under attr. attr defaults to html; also text, outerHTML, markdown, val, json, " +
      "tagName, nodeName or any attribute. type: " + RULE_TYPES.join(", ") + "; image, logo, " +
      "audio and video answer the probed media object { url, type, size, size_pretty, width, " +
      "height }; one whose probe fails falls to the next fallback (rule or selector), as a rule " +
      "that yields nothing does.",
    example: "data.price.selector=.price&data.price.type=number",
    default: null,
    errorCode: "EINVALDATA",
  },
  prerender: {
    schema: { kind: "enum", values: ["auto", "true", "false"] },
    description: "Render with the browser before extracting: auto, true or false.",
    example: "true",
    default: "auto",
  },
  pdf: {
    schema: {
      kind: "object",
      boolean: true,
      props: {
        format: {
          schema: {
            kind: "enum",
            values: [
              "Letter",
              "Legal",
              "Tabloid",
              "Ledger",
              "A0",
              "A1",
              "A2",
              "A3",
              "A4",
              "A5",
              "A6",
            ],
          },
          description: "Paper format.",
          example: "A4",
        },
        scale: {
          schema: { kind: "number", min: 0.1, max: 2 },
          description: "Rendering scale (default 0.6, as Microlink).",
          example: "1",
        },
        margin: {
          schema: { kind: "stringOrTree" },
          description:
            "CSS margin for every side, or margin.top/right/bottom/left (default 0.35cm, as Microlink).",
          example: "1cm",
        },
        width: {
          schema: { kind: "string", maxLength: 32, pattern: CSS_LENGTH },
          description: "Paper width with a unit (px, in, cm, mm); with height, replaces format.",
          example: "8.5in",
        },
        height: {
          schema: { kind: "string", maxLength: 32, pattern: CSS_LENGTH },
          description: "Paper height with a unit (px, in, cm, mm); with width, replaces format.",
          example: "11in",
        },
        landscape: bool("Landscape paper."),
        pageRanges: {
          schema: { kind: "string", maxLength: 256, pattern: PAGE_RANGES_PATTERN },
          description:
            `Pages to print, e.g. "1-5, 8, 11-13" (default: the first ${MAX_PDF_PAGES}; ` +
            `at most ${MAX_PDF_PAGES} pages a PDF).`,
          example: "1-2",
        },
      },
    },
    description: "Add data.pdf, a PDF of the page hosted by the service.",
    example: "true",
  },
  iframe: {
    schema: {
      kind: "object",
      boolean: true,
      props: {
        maxWidth: {
          schema: { kind: "integer", min: 1, max: 10000 },
          description: "oEmbed maxwidth.",
          example: "640",
        },
        maxHeight: {
          schema: { kind: "integer", min: 1, max: 10000 },
          description: "oEmbed maxheight.",
          example: "480",
        },
      },
    },
    description: "Add data.iframe {html, scripts} from the page's oEmbed provider.",
    example: "true",
  },
  palette: { ...bool("Add dominant colours to image and logo."), default: false },
  audio: {
    ...bool("Detect audio (default true); false makes data.audio null.", "false"),
    default: true,
  },
  video: {
    ...bool("Detect video (default true); false makes data.video null.", "false"),
    default: true,
  },
  markdown: { ...bool("Add data.markdown, the main content as Markdown."), default: false },
  text: {
    ...bool("Add data.text, the main content as plain text (a line per block)."),
    default: false,
  },
  frontmatter: {
    ...bool(
      "With markdown=true: open data.markdown with YAML front matter (title, description, " +
        "author, publisher, date, url, word_count, reading_time). Whole-page `data` Markdown " +
        "rules get it whenever meta is on, as on Microlink.",
    ),
    default: false,
  },
  ttl: {
    schema: {
      kind: "duration",
      min: MIN_TTL_MS,
      max: MAX_TTL_MS,
      aliases: { min: MIN_TTL_MS, max: MAX_TTL_MS },
    },
    description: "How long the answer is cached (1m to 31d, e.g. 1d; min and max as Microlink).",
    example: "1h",
    default: null,
    errorCode: "EINVALTTL",
  },
  staleTtl: {
    schema: { kind: "duration", min: 0, max: MAX_TTL_MS, aliases: { "": 0, true: 0, false: null } },
    description:
      "Serve a cached answer older than this (0 up to ttl) at once and refresh it in the " +
      "background; true is 0 (always serve the cached copy and refresh it), false is off.",
    example: "0",
    default: null,
    errorCode: "EINVALSTTL",
  },
  force: { ...bool("Bypass the cache."), default: false },
  cacheKey: {
    schema: { kind: "string", maxLength: 256 },
    description: "Extends the cache key: the same request with another cacheKey is another " +
      "cache entry (A/B variants, audiences). Every plan may use it.",
    example: "variant-a",
  },
  timeout: {
    schema: { kind: "duration", min: 1_000, max: 600_000 },
    description: "Deadline for the whole request (1s up to REQUEST_TIMEOUT_MS).",
    example: "8s",
    default: null,
  },
  waitUntil: {
    schema: { kind: "list", of: WAIT_UNTIL },
    description: "Browser navigation event(s) to wait for.",
    example: "networkidle0",
  },
  waitForSelector: str("Wait until this selector is visible.", "#content"),
  waitForTimeout: {
    schema: { kind: "duration", min: 0, max: 60_000 },
    description: "Extra wait after load.",
    example: "500",
  },
  viewport: VIEWPORT,
  device: str(
    "Device preset as Microlink names them (any case): iPhone 15, iPad, Pixel 5, Macbook Pro 13, iPhone X ... " +
      "Default Macbook Pro 13's viewport (1280x800 at 2x), as Microlink's.",
    "iPhone 15",
  ),
  colorScheme: {
    schema: { kind: "enum", values: ["light", "dark", "no-preference"] },
    description: "prefers-color-scheme.",
    example: "dark",
  },
  javascript: bool("Run the page's JavaScript (default true).", "false"),
  animations: bool("Keep CSS animations (default false).", "true"),
  mediaType: {
    schema: { kind: "enum", values: ["screen", "print"] },
    description: "CSS media type.",
    example: "print",
  },
  click: strings("Selector(s) clicked before capture.", "#accept"),
  scroll: str("Selector scrolled into view before capture.", "#footer"),
  styles: strings("CSS (or stylesheet URLs) injected into the page.", "body{background:red}"),
  scripts: strings("JavaScript (or script URLs) injected into the page.", "document.title='x'"),
  modules: strings(
    "JavaScript modules (inline, or module URLs) injected into the page as module scripts, " +
      "after `scripts`.",
    "document.body.dataset.ready='1'",
  ),
  adblock: bool(
    "Block ads and trackers, reject cookie-consent dialogs and hide ad slots in every browser " +
      "visit (default true).",
    "false",
  ),
  proxy: {
    ...str(
      "Pro only: fetch the target, its probes and the browser visit through this http(s) proxy " +
        "(http://user:pass@host:port); the guard still checks the proxy and every target.",
      "http://user:pass@proxy.example:3128",
    ),
    errorCode: "EINVALPROXY",
  },
  retry: {
    schema: { kind: "integer", min: 0, max: 3 },
    description:
      "Retries of the target fetch after a connection error or a 5xx answer, with backoff, " +
      "within the request's deadline (default 2).",
    example: "0",
    default: 2,
  },
  signature: {
    ...str("HMAC signature authorising this exact query on the pro endpoint."),
    default: null,
  },
  insights: {
    schema: {
      kind: "object",
      boolean: true,
      props: {
        technologies: bool(
          "Add data.insights.technologies: [{ name, confidence, logo, url, categories, slug, " +
            "version }] (Wappalyzer rules). On by default with insights; false turns it off.",
          "false",
        ),
        lighthouse: {
          schema: { kind: "object", boolean: true, closed: true, props: LIGHTHOUSE_SETTINGS },
          description: "Add data.insights.lighthouse, a Lighthouse report of the page. On by " +
            "default with insights; false turns it off. A setting not listed here is refused " +
            "(EINVALQUERY naming it) rather than ignored.",
          example: "true",
        },
      },
    },
    description: "Add data.insights: technologies and lighthouse, each on unless set to false.",
    example: "true",
  },
  function: {
    errorCode: "EINVALFUNCTION",
    schema: { kind: "string", maxLength: 32768 },
    description:
      "JavaScript function run in a permissionless sandbox with Puppeteer's page, every other " +
      "query parameter (known or not), url, html, response and headers (the browser's request " +
      "headers, without the caller's headers.*) as its argument; adds data.function " +
      "{isFulfilled, isRejected, value, profiling, logging}. Code that require()s an npm " +
      "package is refused (EINVALFUNCTION): nothing is installed at run time.",
    example: "({ page }) => page.title()",
    default: null,
  },
  filename: str(
    "File name of the hosted screenshot or pdf (sanitised: letters, digits, dot, dash, underscore).",
    "my-capture",
  ),
} as const satisfies Record<string, ParamDef>;

/** The table, for code that walks every parameter by name (the parser, the OpenAPI document). */
export const PARAMS: Record<string, ParamDef> = DEFINITIONS;

/**
 * The code for an invalid value at `path` (e.g. `screenshot.overlay.background`): the nearest
 * definition on the way down that names one, else EINVALQUERY. Screenshot options are also
 * read at the top level (`overlay.background`).
 */
export function invalidCode(path: string): ErrorCode {
  let code: ErrorCode = "EINVALQUERY";
  let defs: Record<string, ParamDef> | undefined = PARAMS;
  for (const segment of path.split(".", 8)) {
    const def: ParamDef | undefined = defs && Object.hasOwn(defs, segment)
      ? defs[segment]
      : defs === PARAMS && Object.hasOwn(SCREENSHOT_OPTIONS, segment)
      ? (SCREENSHOT_OPTIONS as Record<string, ParamDef>)[segment]
      : undefined;
    if (!def) break;
    if (def.errorCode) code = def.errorCode;
    defs = def.schema.kind === "object" ? def.schema.props : undefined;
  }
  return code;
}

/** Every top-level parameter as the parser reads it: its value, else its default. */
export type QueryValues = {
  -readonly [K in keyof typeof DEFINITIONS]: ParamValue<typeof DEFINITIONS[K]>;
};

/** Parameters that would write files on the server: always refused. */
export const FORBIDDEN_PARAMS = ["path", "screenshot.path", "pdf.path"];

/**
 * Parameters that change how an answer is cached or authorised, not the answer itself (the URL
 * enters the key on its own, without its userinfo).
 */
export const NOT_IN_CACHE_KEY = [
  "url",
  "ttl",
  "staleTtl",
  "force",
  "signature",
  "timeout",
  "retry",
  // Folded into the credentials' HMAC instead (see cachedPayload): it may hold a password.
  "proxy",
];
