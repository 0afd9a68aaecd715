/**
 * The `data` parameter's custom rules: shape, and validation into a normal form that the
 * runner can trust. Every problem is an EINVALDATA (Microlink's code) naming the parameter path.
 */
import { ApiError } from "../../util/errors.ts";
import { compileSelector } from "../dom/mod.ts";
import { isRuleType, RULE_TYPES, type RuleType } from "./value_types.ts";

export interface CustomRule {
  /** Fallback selectors: the first whose match yields a value wins. */
  selector?: string[];
  /** Like `selector`, but every match contributes a value (an array). */
  selectorAll?: string[];
  /** Attributes read in order (first usable value wins), or nested rules run inside a match. */
  attr?: string[] | CustomRules;
  /** Types tried in order; absent means "auto" (a trimmed string, or JSON as parsed). */
  type?: RuleType[];
  /**
   * JavaScript computed in the page by the browser (Microlink's `evaluate`): its source and its
   * place in the request's list of sources (the browser runs them: runCallerCode). Top-level only.
   */
  evaluate?: { source: string; index: number };
}

/** Each name's rules, in fallback order (a single rule is a list of one). */
export type CustomRules = { [name: string]: CustomRule[] };

export const MAX_DEPTH = 5;
export const MAX_RULES = 50;

/**
 * Attributes one rule tries. Every match tries each in turn, and each value each type: without
 * a bound, one rule of 3,000 attrs or 2,500 types was millions of steps a page, inside one
 * value, where the DOM budget is not checked (a worker ran past its deadline and was replaced).
 */
export const MAX_ATTRS = 16;

/**
 * Characters of all the rules' selectors together. Each is compiled on the main thread when the
 * query is checked (an MCP call's 210 KB selector held the event loop 110-170 ms), and again
 * where the rules run.
 */
export const MAX_SELECTOR_CHARS = 16 * 1024;

/** Characters of one `evaluate` source. */
export const MAX_EVALUATE_CHARS = 8192;

interface State {
  count: number;
  /** Characters of the selectors met so far. */
  selectorChars: number;
  /** `evaluate` sources met so far, in order. */
  evaluate: string[];
}

/** Validates the parsed `data` parameter; throws ApiError("EINVALDATA") naming the path. */
export function validateRules(rules: unknown): CustomRules {
  return validateSet(rules, { path: "data", depth: 1 }, {
    count: 0,
    selectorChars: 0,
    evaluate: [],
  });
}

/** The `evaluate` sources of validated rules, in the order of their indexes. */
export function evaluateSources(rules: CustomRules | null): string[] {
  const sources: string[] = [];
  for (const fallbacks of Object.values(rules ?? {})) {
    for (const rule of fallbacks) {
      if (rule.evaluate) sources[rule.evaluate.index] = rule.evaluate.source;
    }
  }
  return sources;
}

interface Where {
  path: string;
  depth: number;
}

function invalid(message: string): never {
  throw new ApiError("EINVALDATA", message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function validateSet(value: unknown, where: Where, state: State): CustomRules {
  const { path } = where;
  if (!isObject(value)) {
    invalid(`The parameter \`${path}\` must hold named rules, like \`${path}.price.selector\`.`);
  }
  const names = Object.keys(value);
  if (names.length === 0) invalid(`The parameter \`${path}\` has no rules.`);
  const out: CustomRules = {};
  for (const name of names) {
    const rulePath = `${path}.${name}`;
    if (name === "__proto__") invalid(`The rule name \`${rulePath}\` is not allowed.`);
    const item = value[name];
    const list = Array.isArray(item) ? item : [item];
    if (list.length === 0) invalid(`The parameter \`${rulePath}\` has no rules.`);
    out[name] = list.map((rule, i) =>
      validateRule(rule, {
        path: Array.isArray(item) ? `${rulePath}.${i}` : rulePath,
        depth: where.depth,
      }, state)
    );
  }
  return out;
}

/** Reads a rule key in any case style (`selectorAll`, `selector_all`, `selector-all`). */
function pick(rule: Record<string, unknown>, name: string): unknown {
  for (const key of Object.keys(rule)) {
    if (key.replace(/[_-]+([a-z])/gi, (_, c: string) => c.toUpperCase()) === name) {
      return rule[key];
    }
  }
  return undefined;
}

function validateRule(value: unknown, where: Where, state: State): CustomRule {
  const { path, depth } = where;
  if (depth > MAX_DEPTH) {
    invalid(`The parameter \`${path}\` nests rules too deep (at most ${MAX_DEPTH} levels).`);
  }
  if (++state.count > MAX_RULES) {
    invalid(`The parameter \`data\` has too many rules (at most ${MAX_RULES}).`);
  }
  if (!isObject(value)) {
    invalid(`The parameter \`${path}\` must be a rule, like \`${path}.selector=h1\`.`);
  }
  const rule: CustomRule = {};
  const selector = pick(value, "selector");
  const selectorAll = pick(value, "selectorAll");
  const attr = pick(value, "attr");
  const type = pick(value, "type");
  const evaluate = pick(value, "evaluate");
  if (evaluate !== undefined) {
    if (depth > 1) {
      invalid(`The parameter \`${path}.evaluate\` is allowed only in top-level rules.`);
    }
    if (selector !== undefined || selectorAll !== undefined || attr !== undefined) {
      invalid(
        `The parameter \`${path}\` has \`evaluate\` beside a selector: use one or the other.`,
      );
    }
    if (typeof evaluate !== "string" || evaluate.trim() === "") {
      invalid(`The parameter \`${path}.evaluate\` must be JavaScript source.`);
    }
    if (evaluate.length > MAX_EVALUATE_CHARS) {
      invalid(
        `The parameter \`${path}.evaluate\` is longer than ${MAX_EVALUATE_CHARS} characters.`,
      );
    }
    rule.evaluate = { source: evaluate, index: state.evaluate.push(evaluate) - 1 };
  }
  if (selector !== undefined) rule.selector = selectors(selector, `${path}.selector`, state);
  if (selectorAll !== undefined) {
    rule.selectorAll = selectors(selectorAll, `${path}.selectorAll`, state);
  }
  if (attr !== undefined) {
    rule.attr = isObject(attr)
      ? validateSet(attr, { path: `${path}.attr`, depth: depth + 1 }, state)
      : atMost(MAX_ATTRS, "attributes", strings(attr, `${path}.attr`), `${path}.attr`);
  }
  if (type !== undefined) rule.type = types(type, `${path}.type`);
  if (!rule.selector && !rule.selectorAll && !rule.attr && !rule.evaluate) {
    invalid(
      `The parameter \`${path}\` needs a \`selector\`, \`selectorAll\`, \`attr\` or \`evaluate\`.`,
    );
  }
  return rule;
}

/** A string or an array of non-empty strings. */
function strings(value: unknown, path: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) invalid(`The parameter \`${path}\` is empty.`);
  return list.map((item, i) => {
    const itemPath = Array.isArray(value) ? `${path}.${i}` : path;
    if (typeof item !== "string" || item.trim() === "") {
      invalid(`The parameter \`${itemPath}\` must be a non-empty string.`);
    }
    return item.trim();
  });
}

function selectors(value: unknown, path: string, state: State): string[] {
  const list = strings(value, path);
  for (const selector of list) state.selectorChars += selector.length;
  if (state.selectorChars > MAX_SELECTOR_CHARS) {
    invalid(
      `The parameter \`${path}\` makes the rules' selectors longer than ` +
        `${MAX_SELECTOR_CHARS} characters in all.`,
    );
  }
  list.forEach((selector, i) => {
    try {
      compileSelector(selector);
    } catch (error) {
      const where = Array.isArray(value) ? `${path}.${i}` : path;
      const reason = error instanceof Error ? error.message : String(error);
      invalid(
        `The parameter \`${where}\` is not a valid CSS selector: \`${selector}\` (${reason}).`,
      );
    }
  });
  return list;
}

/** `list`, unless it is longer than `max`. */
function atMost<T>(max: number, what: string, list: T[], path: string): T[] {
  if (list.length > max) {
    invalid(`The parameter \`${path}\` lists ${list.length} ${what}, at most ${max}.`);
  }
  return list;
}

function types(value: unknown, path: string): RuleType[] {
  // Each type once is all there can be.
  const list = atMost(RULE_TYPES.length, "types", strings(value, path), path);
  return list.map((type, i) => {
    const lower = type.toLowerCase();
    if (!isRuleType(lower)) {
      const where = Array.isArray(value) ? `${path}.${i}` : path;
      invalid(
        `The parameter \`${where}\` has an unknown type \`${type}\` (one of ${
          RULE_TYPES.join(", ")
        }).`,
      );
    }
    return lower;
  });
}
