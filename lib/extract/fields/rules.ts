/**
 * The rule runner. A field is an ordered list of rules, strongest first; each rule reads the
 * page record and returns raw values that the field's normaliser turns into a value or null.
 * A rule that throws yields nothing for that field, never a failed extraction.
 */
import type { JsonLd } from "./jsonld.ts";
import { decodeEntities } from "./text.ts";
import type { PageRecord } from "../stream/record.ts";
import type { UrlContext } from "./resolve.ts";

export type Field =
  | "title"
  | "description"
  | "author"
  | "publisher"
  | "date"
  | "lang"
  | "url"
  | "image"
  | "logo"
  | "audio"
  | "video";

/** An endpoint's answer read into raw field values (the field normalisers still apply). */
export type PlatformData = Partial<Record<Field, unknown>>;

/** What the rule runner reads of the page's platform (a Platform). */
export interface PlatformRules {
  /** Rules tried before the generic ones, for the fields the platform defines. */
  rules: Partial<Record<Field, Rule[]>>;
}

export interface Context extends UrlContext {
  rec: PageRecord;
  ld: JsonLd;
  /** The platform the page's host belongs to (lib/extract/platforms/), or null. */
  platform: PlatformRules | null;
  /** What the platform's endpoint answered for this page (see fetchPlatformData), or null. */
  fetched: PlatformData | null;
  /** Values derived once per page and shared by several rules (see memo). */
  memos: Map<string, unknown>;
}

/** `compute()` once per page under `key`. */
export function memo<T>(ctx: Context, key: string, compute: () => T): T {
  if (ctx.memos.has(key)) return ctx.memos.get(key) as T;
  const value = compute();
  ctx.memos.set(key, value);
  return value;
}

/**
 * The rules for `field`: the page's platform rules first, when its platform defines that field,
 * then the generic ones.
 */
export function rulesFor(ctx: Context, field: Field, generic: Rule[]): Rule[] {
  const own = ctx.platform?.rules[field];
  return own ? [...own, ...generic] : generic;
}

/** Raw value(s) a rule found: one, several (tried in order), or none. */
export type RuleResult = unknown;
export type Rule = (ctx: Context) => RuleResult;
export type Normaliser<T> = (value: unknown, ctx: Context) => T | null;

/**
 * Calls `visit` on each value a rule yielded (arrays flattened, null and undefined skipped) until
 * it returns true; says whether it did.
 */
function each(result: unknown, visit: (value: unknown) => boolean): boolean {
  if (Array.isArray(result)) {
    for (const v of result) if (each(v, visit)) return true;
    return false;
  }
  return result !== undefined && result !== null && visit(result);
}

function safe(rule: Rule, ctx: Context): unknown {
  try {
    return rule(ctx);
  } catch {
    return undefined;
  }
}

function normalised<T>(normalise: Normaliser<T>, raw: unknown, ctx: Context): T | null {
  try {
    return normalise(raw, ctx);
  } catch {
    return null;
  }
}

/** The first value any rule yields that survives the normaliser. */
export function firstOf<T>(rules: Rule[], normalise: Normaliser<T>, ctx: Context): T | null {
  let found: T | null = null;
  for (const rule of rules) {
    const done = each(safe(rule, ctx), (raw) => (found = normalised(normalise, raw, ctx)) !== null);
    if (done) return found;
  }
  return null;
}

/** Every distinct value the rules yield, in rule order, at most `limit`. */
export function allOf<T>(
  rules: Rule[],
  opts: { normalise: Normaliser<T>; ctx: Context; limit: number },
): T[] {
  const out: T[] = [];
  for (const rule of rules) {
    const full = each(safe(rule, opts.ctx), (raw) => {
      const value = normalised(opts.normalise, raw, opts.ctx);
      if (value !== null && !out.includes(value)) out.push(value);
      return out.length >= opts.limit;
    });
    if (full) return out;
  }
  return out;
}

/** Contents of meta name=/property= `key` (case-insensitive). */
export const meta = (key: string): Rule => ({ rec }) => rec.meta.get(key);

/** Contents of meta itemprop=`key`. */
export const itemMeta = (key: string): Rule => ({ rec }) => rec.itemMeta.get(key);

/**
 * JSON-LD values at `path`, entity-decoded (JSON strings are not HTML-decoded by the parser).
 * `refs: false` reads only values written inline, not reached through an @id reference.
 */
export const ld = (path: string, opts: { refs?: boolean } = {}): Rule => ({ ld }) =>
  ld.values(path, opts).map((v) => typeof v === "string" ? decodeEntities(v) : v);

/** Every text a probe kept (a few), in document order. */
export const allTexts = (probe: Parameters<PageRecord["texts"]["get"]>[0]): Rule => ({ rec }) =>
  rec.texts.get(probe);

/** The first text a probe captured, the way a first-match CSS rule would. */
export const firstText = (probe: Parameters<PageRecord["texts"]["get"]>[0]): Rule => ({ rec }) =>
  rec.texts.get(probe)?.[0];
