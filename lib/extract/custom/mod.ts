/**
 * Runs the `data` parameter's custom rules (Microlink's rule language) over a page: selector /
 * selectorAll, attr (an attribute, html, outerHTML, text, markdown, val, json, tagName,
 * nodeName, or nested rules), type, and fallbacks. A rule never throws at run time: whatever
 * fails yields null.
 */
import { type AnyNode, isComment, isDocument, isTag, isText } from "domhandler";
import {
  absoluteUrl,
  attr as readAttribute,
  baseUrl,
  type Document,
  innerHtml,
  outerHtml,
  rawText,
  select,
  selectAll,
  textOf,
} from "../dom/mod.ts";
import { applyType, MEDIA, type RuleType, typeContext } from "./value_types.ts";
import type { MediaField, MediaObject } from "../../util/payload_types.ts";
import type { Context } from "../fields/rules.ts";
import type { CustomRule, CustomRules } from "./rules.ts";
import { nodeToMarkdown } from "../content/markdown.ts";
import { parseJson } from "../../util/json_depth.ts";

export { evaluateSources, validateRules } from "./rules.ts";
export type { CustomRule, CustomRules } from "./rules.ts";

/** Characters of string values one request may produce; past it values are null. */
const OUTPUT_BUDGET = 8 * 1024 * 1024;

interface Run {
  base: string;
  /** The page as the field normalisers see it (typed rules), built on first use. */
  context: () => Context;
  budget: number;
  /** Values the browser computed for `evaluate` rules, by index (null where one failed). */
  evaluated: unknown[];
  /** Every media value produced, for the request's probes to fill in. */
  media: CustomMedia[];
}

/**
 * A media value of the output, by reference: the probes complete the object in place. The
 * references survive the trip from a DOM worker, since one message is cloned as one graph.
 */
export interface CustomMedia {
  kind: MediaField;
  value: MediaObject;
  /**
   * The values its rule's later fallbacks (rules and selectors) gave, for when its probe fails
   * (Microlink: a rule that fails falls to the next); `holder[key]` is where the value sits.
   */
  fallback?: { holder: Record<string, unknown>; key: string; next: Fallback[] };
}

/** A later fallback's value, and the media values inside it (probed only if it is taken). */
export interface Fallback {
  value: unknown;
  media: CustomMedia[];
}

/** The media value that `value` is, when it is one (not a list or an object holding some). */
export function singleMedia(found: Fallback): CustomMedia | null {
  const [only] = found.media;
  return found.media.length === 1 && only!.value === found.value ? only! : null;
}

/** Runs validated rules over the parsed page fetched from `url`; one key per rule name. */
export function runRulesOnDocument(
  doc: Document,
  options: {
    url: string;
    rules: CustomRules;
    evaluated?: unknown[];
    /**
     * Filled with the names whose value is the whole page as Markdown (a top-level rule with
     * `attr: markdown` and no selector won): Microlink gives those front matter under `meta`.
     */
    wholePageMarkdown?: Set<string>;
    /** Filled with the media values produced (see CustomMedia). */
    media?: CustomMedia[];
  },
): Record<string, unknown> {
  let base = options.url;
  try {
    base = baseUrl(doc, options.url);
  } catch {
    // Keep the page URL as the base.
  }
  let context: Context | undefined;
  const read = (selector: string, name: string) => {
    const el = select(doc, selector);
    return el ? readAttribute(el, name) : null;
  };
  return runSet(doc, options.rules, {
    base,
    context: () =>
      context ??= typeContext(options.url, base, {
        htmlLang: read("html", "lang"),
        ogLocale: read('meta[property="og:locale"], meta[name="og:locale"]', "content"),
        contentLanguage: read('meta[name="content-language"]', "content"),
      }),
    budget: OUTPUT_BUDGET,
    evaluated: options.evaluated ?? [],
    media: options.media ?? [],
  }, options.wholePageMarkdown);
}

/** `wholePageMarkdown`: only the top level names whole-page Markdown (nested scopes are not). */
function runSet(
  scope: AnyNode,
  rules: CustomRules,
  run: Run,
  wholePageMarkdown?: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, fallbacks] of Object.entries(rules)) {
    out[name] = null;
    const found = valuesOf(scope, fallbacks, run);
    const first = found.next();
    if (first.done) continue;
    out[name] = first.value.value;
    if (wholePageMarkdown && isWholePageMarkdown(first.value.rule)) wholePageMarkdown.add(name);
    const media = singleMedia(first.value);
    if (media) media.fallback = { holder: out, key: name, next: laterValues(found, run) };
  }
  return out;
}

/** Each value the fallbacks give, in order (lazily), with the media values it noted. */
function* valuesOf(
  scope: AnyNode,
  fallbacks: CustomRule[],
  run: Run,
): Generator<Fallback & { rule: CustomRule }> {
  for (const rule of fallbacks) {
    const values = ruleValues(scope, rule, run);
    while (true) {
      const noted = run.media.length;
      let step: IteratorResult<unknown>;
      try {
        step = values.next();
      } catch {
        break; // whatever fails yields nothing more from this rule
      }
      if (step.done) break;
      if (step.value !== null) yield { value: step.value, rule, media: run.media.slice(noted) };
    }
  }
}

/**
 * The values after a media value, up to the first that is no media value (that one cannot fail
 * a probe). Their media are taken off the request's list: probed only when their turn comes.
 */
function laterValues(found: Iterator<Fallback>, run: Run): Fallback[] {
  const later: Fallback[] = [];
  for (let next = found.next(); !next.done; next = found.next()) {
    run.media.splice(run.media.length - next.value.media.length);
    later.push({ value: next.value.value, media: next.value.media });
    if (!singleMedia(next.value)) break;
  }
  return later;
}

/** `attr: markdown` (its first attr) with no selector: Microlink's whole-page conversion. */
function isWholePageMarkdown(rule: CustomRule): boolean {
  return !rule.selector && !rule.selectorAll && !rule.evaluate && Array.isArray(rule.attr) &&
    rule.attr[0] === "markdown";
}

/** A rule's values in fallback order: one per selector that yields one (one without). */
function* ruleValues(scope: AnyNode, rule: CustomRule, run: Run): Generator<unknown> {
  if (rule.evaluate) {
    yield typedEvaluated(run.evaluated[rule.evaluate.index] ?? null, rule, run);
  } else if (rule.selectorAll) {
    for (const selector of rule.selectorAll) {
      const values = selectAll(scope, selector)
        .map((el) => valueOf(el, rule, run))
        .filter((v) => v !== null);
      if (values.length) yield values;
    }
  } else if (rule.selector) {
    for (const selector of rule.selector) {
      const el = select(scope, selector);
      if (el) yield valueOf(el, rule, run);
    }
  } else {
    // No selector: the attr applies to the whole scope (the page, or the nested match).
    yield valueOf(scope, rule, run);
  }
}

function valueOf(node: AnyNode, rule: CustomRule, run: Run): unknown {
  // Spent output budget: stop reading values, not only returning them (nested matches).
  if (run.budget < 0) return null;
  const attr = rule.attr;
  if (attr && !Array.isArray(attr)) {
    const nested = runSet(node, attr, run);
    return Object.values(nested).some((v) => v !== null) ? nested : null;
  }
  const types: RuleType[] = rule.type ?? ["auto"];
  for (const name of attr ?? defaultAttrs(node, types)) {
    const raw = read(node, name, run);
    if (raw === null) continue;
    if (typeof raw === "string") {
      run.budget -= raw.length;
      if (run.budget < 0) return null;
    }
    for (const type of types) {
      // Untyped links and sources are still URLs: absolute, like every URL in `data`.
      const value = type === "auto" && URL_ATTRS.has(name) && isTag(node) &&
          typeof raw === "string"
        ? absoluteUrl(raw, run.base) ?? applyType(raw, type, run.context)
        : applyType(raw, type, run.context);
      if (value !== null && value !== undefined) return noted(value, type, run);
    }
  }
  return null;
}

/** A value the page computed, through the rule's types (numbers and booleans read as text). */
function typedEvaluated(raw: unknown, rule: CustomRule, run: Run): unknown {
  if (raw === null) return null;
  for (const type of rule.type ?? ["auto"]) {
    const scalar = typeof raw === "number" || typeof raw === "boolean";
    const value = applyType(scalar && type !== "auto" ? String(raw) : raw, type, run.context);
    if (value !== null && value !== undefined) return noted(value, type, run);
  }
  return null;
}

/** A media type's value is noted for the probes; any value is handed back as it is. */
function noted(value: unknown, type: RuleType, run: Run): unknown {
  if (MEDIA[type]) run.media.push({ kind: type as MediaField, value: value as MediaObject });
  return value;
}

const URL_ATTRS = new Set(["href", "src", "data-src", "poster", "cite", "action"]);
const URL_TYPES = new Set<RuleType>(["url", "image", "logo", "audio", "video"]);

/** Types whose value may be markup; the others read text (their normalisers strip markup). */
const MARKUP_TYPES = new Set<RuleType>(["auto", "string", "object", "regexp"]);

/**
 * Without `attr`: Microlink's default, `html` (its text for types that are not markup, as its
 * normalisers read it). Where an element's HTML cannot hold the value (a void element: meta,
 * input, img) or is only a link's label under a URL or media type, the attribute that holds it
 * is read (linkpeek's addition: Microlink answers nothing there).
 */
function defaultAttrs(node: AnyNode, types: RuleType[]): string[] {
  const html = types.some((t) => MARKUP_TYPES.has(t)) ? "html" : "text";
  if (!isTag(node)) return [html];
  const tag = node.name;
  if (tag === "meta") return ["content"];
  if (tag === "input" || tag === "select") return ["val"];
  if (types.some((t) => URL_TYPES.has(t))) {
    if (tag === "a" || tag === "link" || tag === "area") return ["href"];
    if (tag === "img") return ["src", "data-src"];
    if (tag === "object") return ["data"];
    if (["audio", "video", "source", "iframe", "embed", "script", "track"].includes(tag)) {
      return ["src"];
    }
  }
  return [html];
}

/** One raw value: a special name, else the attribute of that name. */
function read(node: AnyNode, name: string, run: Run): unknown {
  switch (name) {
    case "html":
    case "innerHTML":
      return innerHtml(node);
    case "outerHTML":
      return outerHtml(node);
    case "text":
    case "textContent":
    case "innerText":
      return textOf(node);
    case "markdown":
      return nodeToMarkdown(node, { baseUrl: run.base });
    case "val":
      return val(node);
    case "json":
      return json(node);
    case "tagName":
      return isTag(node) ? node.name.toUpperCase() : null;
    case "nodeName":
      return nodeName(node);
    default:
      // Microlink: on the whole page, an attr it does not support falls back to its HTML.
      return isDocument(node) ? innerHtml(node) : readAttribute(node, name);
  }
}

/** The DOM's nodeName: an element's upper-cased tag, `#text`, `#comment`, `#document`. */
function nodeName(node: AnyNode): string | null {
  if (isTag(node)) return node.name.toUpperCase();
  if (isDocument(node)) return "#document";
  if (isText(node)) return "#text";
  if (isComment(node)) return "#comment";
  return null;
}

/** The current value of a form field, as jQuery's .val() reads it. */
function val(node: AnyNode): string | null {
  if (!isTag(node)) return null;
  if (node.name === "textarea") return rawText(node);
  if (node.name === "select") {
    const option = select(node, "option[selected]") ?? select(node, "option");
    if (!option) return null;
    return readAttribute(option, "value") ?? textOf(option);
  }
  if (node.name === "option") return readAttribute(node, "value") ?? textOf(node);
  return readAttribute(node, "value");
}

/** The page (or element) text parsed as JSON, for JSON endpoints. */
function json(node: AnyNode): unknown {
  const text = isDocument(node) || isTag(node) ? rawText(node) : "";
  try {
    return parseJson(text);
  } catch {
    return null;
  }
}
