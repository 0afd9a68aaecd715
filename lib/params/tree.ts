/** A query string as a tree of dotted names: `a.b=1&a=true` -> a{value:"true", kids{b{value:"1"}}}. */
import { BoundedMap } from "../util/bounded_map.ts";
import { ApiError } from "../util/errors.ts";
export interface QueryNode {
  value?: string;
  kids: Map<string, QueryNode>;
}

export function emptyNode(): QueryNode {
  return { kids: new Map() };
}

/**
 * Dotted levels one name may have. The deepest real name, a custom rule five levels down
 * (`data.a.0.attr.b.0.attr.c.0.attr.d.0.attr.e.0.selector.1`), has 18; every walk over the
 * tree (`toPlain`, the rules' validation, the cache key, the function's argument) recurses per
 * level, so the bound is checked here, before any of them runs.
 */
export const MAX_NAME_DEPTH = 32;

export function buildTree(query: URLSearchParams): QueryNode {
  const root = emptyNode();
  for (const [name, value] of query) {
    const segments = name.split(".");
    if (segments.length > MAX_NAME_DEPTH) {
      throw new ApiError(
        "EINVALQUERY",
        `The parameter \`${segments.slice(0, 3).join(".")}...\` nests too deep ` +
          `(${segments.length} dotted levels, at most ${MAX_NAME_DEPTH}).`,
      );
    }
    let node = root;
    for (const segment of segments) {
      let kid = node.kids.get(segment);
      if (!kid) {
        kid = emptyNode();
        node.kids.set(segment, kid);
      }
      node = kid;
    }
    node.value = value;
  }
  return root;
}

/**
 * Parameter names repeat on every request; a bounded memo keeps the hot path cheap. Real
 * names are short: a long one (a query may hold 64 KB of it) is not kept.
 */
const camelCache = new BoundedMap<string, string>(4096, { maxKeyLength: 128 });

/** snake_case and kebab-case to camelCase: `full_page` -> `fullPage`. */
export function toCamel(name: string): string {
  let camel = camelCache.get(name);
  if (camel === undefined) {
    camel = name.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
    camelCache.set(name, camel);
  }
  return camel;
}

/** Any spelling of a header name to its lower-case dashed form: `userAgent` -> `user-agent`. */
export function toHeaderName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/_/g, "-").toLowerCase();
}

/** Kids by canonical (camelCase) name; of two spellings of one name the last wins. */
export function canonicalKids(node: QueryNode): Map<string, QueryNode> {
  const out = new Map<string, QueryNode>();
  for (const [name, kid] of node.kids) out.set(toCamel(name), kid);
  return out;
}

/** Looks a canonical name up among kids spelled in any case style (last spelling wins). */
export function findKid(node: QueryNode, canonical: string): QueryNode | undefined {
  let found: QueryNode | undefined;
  for (const [name, kid] of node.kids) {
    if (toCamel(name) === canonical) found = kid;
  }
  return found;
}

/** A free-form subtree as plain data: numeric keys become arrays, leaves strings. */
export function toPlain(node: QueryNode, renameKey: (key: string) => string = (k) => k): unknown {
  if (node.kids.size === 0) return node.value ?? "";
  const keys = [...node.kids.keys()];
  if (keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) =>
      toPlain(node.kids.get(k)!, renameKey)
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, kid] of node.kids) out[renameKey(key)] = toPlain(kid, renameKey);
  return out;
}
