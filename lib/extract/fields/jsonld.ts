/**
 * JSON-LD blocks as one list of nodes: top-level arrays and @graph members flattened, with
 * @id references resolved when a path walks through them.
 */
import { parseJson } from "../../util/json_depth.ts";

type Node = Record<string, unknown>;
/** Per object, a bit per path length it was walked with. */
type Seen = WeakMap<object, number>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

// The wrappers old pages put around script contents, as comments of either language:
// <![CDATA[ ... ]]>, //<![CDATA[ ... //]]>, /*<![CDATA[*/ ... /*]]>*/, <!-- ... -->, // -->.
const WRAPPER_START = /^\s*(?:(?:\/\/|\/\*)\s*)?(?:<!\[CDATA\[|<!--)(?:\s*\*\/)?/;
const WRAPPER_END = /(?:(?:\/\/|\/\*)\s*)?(?:\]\]>|-->)(?:\s*\*\/)?\s*$/;

/** The JSON inside a script's text, its CDATA and comment wrappers (even nested) taken off. */
export function unwrapScript(text: string): string {
  let src = text.trim();
  for (let i = 0; i < 3; i++) {
    const next = src.replace(WRAPPER_START, "").replace(WRAPPER_END, "").trim();
    if (next === src) break;
    src = next;
  }
  return src;
}

/** Parses a block, repairing the common breakage (trailing commas, raw newlines in strings). */
function parseBlock(text: string): unknown {
  const src = unwrapScript(text);
  try {
    return parseJson(src);
  } catch {
    try {
      // raw control characters (newlines inside strings) are invalid JSON
      // deno-lint-ignore no-control-regex
      return parseJson(src.replace(/,\s*([}\]])/g, "$1").replace(/[\u0000-\u001f]+/g, " "));
    } catch {
      return undefined;
    }
  }
}

export class JsonLd {
  readonly nodes: Node[] = [];
  readonly #byId = new Map<string, Node>();

  constructor(blocks: string[]) {
    for (const text of blocks) this.#add(parseBlock(text));
    for (const node of this.nodes) this.#index(node, 0);
  }

  #add(value: unknown): void {
    if (Array.isArray(value)) {
      for (const v of value) this.#add(v);
      return;
    }
    if (!isNode(value)) return;
    const graph = value["@graph"];
    if (graph === undefined) {
      this.nodes.push(value);
      return;
    }
    // Graph members inherit the wrapper's own properties (like @context), as metascraper does.
    const { "@graph": _, ...props } = value;
    const members = Array.isArray(graph) ? graph : [graph];
    for (const m of members) if (isNode(m)) this.nodes.push({ ...props, ...m });
    if (Object.keys(props).some((k) => !k.startsWith("@"))) this.nodes.push(props);
  }

  #index(node: Node, depth: number): void {
    if (depth > 6) return;
    const id = node["@id"];
    // The fullest node wins: a bare {"@id"} reference must not shadow its definition.
    if (typeof id === "string" && Object.keys(node).length > 1) {
      const prev = this.#byId.get(id);
      if (!prev || Object.keys(prev).length < Object.keys(node).length) this.#byId.set(id, node);
    }
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) { for (const x of v) isNode(x) && this.#index(x, depth + 1); }
      else if (isNode(v)) this.#index(v, depth + 1);
    }
  }

  #deref(v: unknown): unknown {
    if (isNode(v) && typeof v["@id"] === "string") {
      const keys = Object.keys(v).filter((k) => k !== "@id" && k !== "@type");
      if (keys.length === 0) return this.#byId.get(v["@id"]) ?? v;
    }
    return v;
  }

  /**
   * Values at `path` (dot-separated) in one node, arrays walked, references followed. `seen`
   * holds, per object, the path lengths it was walked with: a thousand references to one node
   * holding a thousand values must not be a million steps (nor repeat the same values).
   */
  #walk(value: unknown, path: string[], out: unknown[], refs: boolean, seen: Seen): void {
    const v = refs ? this.#deref(value) : value;
    if (typeof v === "object" && v !== null) {
      const walked = seen.get(v) ?? 0;
      const bit = 1 << Math.min(path.length, 30);
      if (walked & bit) return;
      seen.set(v, walked | bit);
    }
    if (Array.isArray(v)) {
      for (const x of v) this.#walk(x, path, out, refs, seen);
      return;
    }
    if (path.length === 0) {
      if (v !== undefined && v !== null && v !== "") out.push(v);
      return;
    }
    if (!isNode(v)) return;
    const [head, ...rest] = path as [string, ...string[]];
    if (Object.hasOwn(v, head)) this.#walk(v[head], rest, out, refs, seen);
  }

  /**
   * All values at `path` across nodes, in document order. `types` limits to nodes of a @type;
   * `refs: false` does not follow @id references.
   */
  values(path: string, opts: { types?: RegExp; refs?: boolean } = {}): unknown[] {
    const out: unknown[] = [];
    const parts = path.split(".");
    const seen: Seen = new WeakMap();
    for (const node of this.nodes) {
      if (opts.types && !matchesType(node, opts.types)) continue;
      this.#walk(node, parts, out, opts.refs ?? true, seen);
    }
    return out;
  }

  /** The first value at `path` (first node that has one). */
  first(path: string, types?: RegExp): unknown {
    const parts = path.split(".");
    for (const node of this.nodes) {
      if (types && !matchesType(node, types)) continue;
      const out: unknown[] = [];
      this.#walk(node, parts, out, true, new WeakMap());
      if (out.length) return out.length === 1 ? out[0] : out;
    }
    return undefined;
  }

  /** Resolves a reference node, for callers walking values themselves. */
  deref(v: unknown): unknown {
    return this.#deref(v);
  }
}

export function matchesType(node: Record<string, unknown>, types: RegExp): boolean {
  const t = node["@type"];
  if (typeof t === "string") return types.test(t);
  return Array.isArray(t) && t.some((x) => typeof x === "string" && types.test(x));
}
