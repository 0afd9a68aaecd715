/**
 * linkpeek's MCP tools. Each one is a query on the API (or /oembed) and a view of its answer:
 * the arguments an agent may send (API parameters by name, made into JSON Schema from PARAMS),
 * the parameters the tool fixes, and the field of `data` its text content shows. Nothing here
 * extracts anything: the API's pipeline does, as for any other request.
 *
 * Names are `linkpeek_<what>`: unique when a client merges several servers' tools into one
 * list (several browser servers have a "screenshot"), readable where a client shows no server
 * name, and one-for-one with @microlink/mcp's microlink_<what> for agents moving over.
 */
import { PAGE_OPTIONS } from "../params/mod.ts";
import { PARAMS, SCREENSHOT_OPTIONS } from "../params/schema.ts";
import { appendArg, type JsonObject, paramArgs } from "./args.ts";

/** Where a tool's query goes: the API, or the oEmbed provider on the same pipeline. */
export type ToolPath = "/" | "/oembed";

export interface Tool {
  name: string;
  title: string;
  description: string;
  /** Argument schemas by name; `url` is added to every tool and required. */
  args: Record<string, JsonObject>;
  required?: string[];
  path?: ToolPath;
  /** The query: the tool's fixed parameters, then its arguments (an argument may override). */
  query(args: Record<string, unknown>): URLSearchParams;
  /** The field of the answer's `data` shown as the text content; the whole `data` when absent. */
  shows?: string;
  /** `data.<media>.url`: a hosted capture, sent as a link (and an image when small). */
  media?: "screenshot" | "pdf";
}

/** How the target is fetched, cached and timed: every tool takes these. */
const FETCH = [
  "headers",
  "ttl",
  "staleTtl",
  "force",
  "timeout",
  "retry",
  "proxy",
  "prerender",
] as const;

/** With how the browser loads the page (the API's page options): every tool that reads it. */
const PAGE = [...FETCH, ...PAGE_OPTIONS];

/** The API query of a tool: its fixed parameters, then the arguments as sent. */
function queryOf(
  fixed: Record<string, string>,
  args: Record<string, unknown>,
): URLSearchParams {
  const query = new URLSearchParams(fixed);
  for (const [name, value] of Object.entries(args)) {
    // An argument replaces a fixed parameter of the same name (`meta`, say).
    if (query.has(name)) query.delete(name);
    appendArg(query, name, value);
  }
  return query;
}

const SCOPE: JsonObject = {
  type: "string",
  enum: ["main", "page"],
  default: "main",
  description: "main: the page's main content (the article, without navigation, ads and " +
    "footer); page: the whole page.",
};

/** Markdown or text, of the main content (an API parameter) or the whole page (a rule). */
function contentTool(kind: "markdown" | "text"): Tool {
  const label = kind === "markdown" ? "Markdown" : "plain text";
  return {
    name: `linkpeek_${kind}`,
    title: `Page as ${label}`,
    description: `A web page's content as ${label}: its main content (default), or the whole ` +
      `page with scope=page. Use it to read an article or documentation page.`,
    args: { scope: SCOPE, ...paramArgs(PAGE) },
    shows: kind,
    query: ({ scope, ...args }) =>
      queryOf(
        scope === "page"
          // A rule without a selector reads the whole document.
          ? { "meta.url": "true", [`data.${kind}.attr`]: kind }
          : { "meta.url": "true", [kind]: "true" },
        args,
      ),
  };
}

/** Every element matching `selectorAll`, read as `attr` and typed as `type`. */
function listTool(
  name: string,
  options: { what: string; selectorAll: string; attr: string; type: string },
): Tool {
  return {
    name: `linkpeek_${name}`,
    title: `${name[0]!.toUpperCase()}${name.slice(1)} of a page`,
    description: `The ${options.what} of a web page, absolute and de-duplicated by the page's ` +
      `order, as a list.`,
    args: paramArgs(PAGE),
    shows: name,
    query: (args) =>
      queryOf({
        "meta.url": "true",
        [`data.${name}.selectorAll`]: options.selectorAll,
        [`data.${name}.attr`]: options.attr,
        [`data.${name}.type`]: options.type,
      }, args),
  };
}

const SCREENSHOT_ARGS = Object.keys(SCREENSHOT_OPTIONS);

export const TOOLS: readonly Tool[] = [
  {
    name: "linkpeek_metadata",
    title: "Page metadata",
    description: "A web page's metadata, normalised: title, description, author, publisher, " +
      "date, lang, url, image, logo, audio and video. `data` adds custom rules (CSS selector, " +
      "attribute, type) read from the page; `meta`, `filter`, `palette`, `iframe` and the " +
      "other API options are passed as they are.",
    args: paramArgs([
      "meta",
      "data",
      "filter",
      "ping",
      "palette",
      "iframe",
      "audio",
      "video",
      ...PAGE,
    ]),
    query: (args) => queryOf({}, args),
  },
  contentTool("markdown"),
  contentTool("text"),
  {
    name: "linkpeek_html",
    title: "Page HTML",
    description: "A web page's HTML as served (or as rendered with prerender=true), whole or " +
      "the first element matching `selector`.",
    args: {
      selector: { type: "string", maxLength: 2048, description: "CSS selector of one element." },
      ...paramArgs(PAGE),
    },
    shows: "html",
    query: ({ selector, ...args }) =>
      queryOf(
        typeof selector === "string"
          ? { "meta.url": "true", "data.html.selector": selector, "data.html.attr": "outerHTML" }
          : { "meta.url": "true", "data.html.attr": "html" },
        args,
      ),
  },
  {
    name: "linkpeek_screenshot",
    title: "Screenshot",
    description: "A screenshot of a web page taken by a real browser: the image itself when " +
      "it is small, and always its URL (hosted by linkpeek).",
    args: paramArgs([...SCREENSHOT_ARGS, "filename", ...PAGE]),
    media: "screenshot",
    shows: "screenshot",
    query: (args) => queryOf({ "meta.url": "true", screenshot: "true" }, args),
  },
  {
    name: "linkpeek_pdf",
    title: "PDF",
    description: "A PDF of a web page printed by a real browser, hosted by linkpeek: its URL " +
      "and size.",
    args: {
      ...paramArgs(["format", "scale", "margin", "landscape", "pageRanges"], objectProps("pdf")),
      ...paramArgs(["filename", ...PAGE]),
    },
    media: "pdf",
    shows: "pdf",
    query: ({ format, scale, margin, landscape, pageRanges, ...args }) => {
      const query = queryOf({ "meta.url": "true", pdf: "true" }, args);
      appendArg(query, "pdf", { format, scale, margin, landscape, pageRanges });
      return query;
    },
  },
  {
    name: "linkpeek_palette",
    title: "Colour palette",
    description: "The dominant colours of a web page's image and logo (palette, " +
      "background_color, color, alternative_color), with the rest of its metadata.",
    args: paramArgs(PAGE),
    query: (args) => queryOf({ palette: "true" }, args),
  },
  {
    name: "linkpeek_insights",
    title: "Technologies and Lighthouse",
    description: "What a web site is built with (Wappalyzer rules: frameworks, CMS, analytics, " +
      "servers) and, with lighthouse, a Lighthouse report (performance, accessibility, SEO, " +
      "best practices scores and audits; it takes tens of seconds).",
    args: {
      technologies: {
        type: "boolean",
        default: true,
        description: "Detect the technologies the site uses.",
      },
      ...paramArgs(["lighthouse"], objectProps("insights")),
      ...paramArgs(PAGE),
    },
    shows: "insights",
    query: ({ technologies, lighthouse, ...args }) => {
      const query = queryOf({ "meta.url": "true" }, args);
      appendArg(query, "insights.technologies", technologies ?? true);
      appendArg(query, "insights.lighthouse", lighthouse ?? false);
      return query;
    },
  },
  listTool("links", {
    what: "links (href of every <a>)",
    selectorAll: "a[href]",
    attr: "href",
    type: "url",
  }),
  listTool("images", {
    what: "images (src of every <img>)",
    selectorAll: "img[src]",
    attr: "src",
    type: "url",
  }),
  listTool("emails", {
    what: "e-mail addresses (of every mailto: link)",
    selectorAll: 'a[href^="mailto:" i]',
    attr: "href",
    type: "email",
  }),
  {
    name: "linkpeek_oembed",
    title: "oEmbed",
    description: "An oEmbed 1.0 answer for any URL (linkpeek's /oembed): the site's own " +
      "provider's video or rich embed when it has one, else a photo or a card.",
    path: "/oembed",
    args: {
      maxWidth: { type: "integer", minimum: 1, maximum: 10000, description: "Max width, px." },
      maxHeight: { type: "integer", minimum: 1, maximum: 10000, description: "Max height, px." },
      link: { type: "boolean", description: "A link answer, whatever the target is." },
      ...paramArgs(["headers", "ttl", "staleTtl", "force", "prerender", "timeout"]),
    },
    query: ({ maxWidth, maxHeight, link, ...args }) => {
      const query = queryOf({}, args);
      appendArg(query, "maxwidth", maxWidth);
      appendArg(query, "maxheight", maxHeight);
      if (link === true) query.set("type", "link");
      return query;
    },
  },
  {
    name: "linkpeek_function",
    title: "Run a function in the page",
    description: "Runs a JavaScript function against the page in a real browser and returns " +
      "its value: ({ page, response, html, ...args }) => ... (page is Puppeteer's page: " +
      "click, type, goto, waitForSelector, evaluate, $eval, $$eval, content, screenshot...). " +
      "For anything the other tools do not read.",
    args: paramArgs(["function", ...PAGE]),
    required: ["function"],
    shows: "function",
    query: (args) => queryOf({ "meta.url": "true" }, args),
  },
];

/** The member definitions of an object parameter (pdf's format, insights' lighthouse). */
function objectProps(name: string) {
  const schema = PARAMS[name]!.schema;
  if (schema.kind !== "object") throw new Error(`${name} is not an object parameter`);
  return schema.props;
}

export const TOOLS_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));
