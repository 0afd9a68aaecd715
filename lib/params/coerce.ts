import { ApiError } from "../util/errors.ts";
import { isHeaderValue, isReservedHeader } from "../util/http.ts";
import { parseDuration } from "./duration.ts";
import { invalidCode, type ParamDef, PARAMS, type QueryValues, type Schema } from "./schema.ts";
import { canonicalKids, type QueryNode, toHeaderName, toPlain } from "./tree.ts";

/** EINVALQUERY, or the parameter's own code (Microlink's EINVALTTL, EINVALDATA, ...). */
function invalid(path: string, message: string): ApiError {
  return new ApiError(invalidCode(path), `The parameter \`${path}\` ${message}`);
}

/** A member a closed object does not have, naming it and the ones it has. */
function unknownMember(path: string, props: Record<string, unknown>): ApiError {
  const known = Object.keys(props).join(", ");
  return invalid(path.slice(0, 200), `is not a setting linkpeek knows here (${known}).`);
}

function coerceBoolean(text: string, path: string): boolean {
  if (text === "" || text === "true") return true;
  if (text === "false") return false;
  throw invalid(path, `must be true or false, got "${text}".`);
}

function coerceNumber(
  text: string,
  path: string,
  schema: { min: number; max: number },
  integer: boolean,
) {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw invalid(path, `must be ${integer ? "an integer" : "a number"}, got "${text}".`);
  }
  if (value < schema.min || value > schema.max) {
    throw invalid(path, `must be between ${schema.min} and ${schema.max}, got ${value}.`);
  }
  return value;
}

function coerceHeaders(
  node: QueryNode,
  path: string,
  schema: { maxCount: number; maxLength: number },
): Record<string, string> {
  if (node.kids.size > schema.maxCount) {
    throw invalid(path, `names ${node.kids.size} headers; at most ${schema.maxCount} are sent.`);
  }
  const out: Record<string, string> = {};
  for (const [rawName, kid] of node.kids) {
    const name = toHeaderName(rawName);
    const value = kid.value ?? "";
    const where = `${path}.${rawName}`;
    if (kid.kids.size > 0) throw invalid(where, "must be a single header value.");
    if (value.length > schema.maxLength) {
      throw invalid(where, `is longer than ${schema.maxLength} characters.`);
    }
    if (isReservedHeader(name)) {
      throw invalid(where, "names a header that cannot be set.");
    }
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw invalid(where, "is not a header name.");
    if (/[\r\n]/.test(value)) throw invalid(where, "must not contain line breaks.");
    if (!isHeaderValue(value)) {
      throw invalid(where, "must hold printable Latin-1 characters only (no control characters).");
    }
    out[name] = value;
  }
  return out;
}

/** The query's values, each parameter the query does not name at its definition's default. */
export function applyDefaults(values: Record<string, unknown>): QueryValues {
  const out = { ...values };
  for (const [name, def] of Object.entries(PARAMS)) {
    if (out[name] === undefined && def.default !== undefined) out[name] = def.default;
  }
  // The shape is the table's: every value came from coerce() or a definition's default.
  return out as QueryValues;
}

/** Turns one query subtree into the value its schema describes. */
export function coerce(node: QueryNode, def: ParamDef, path: string): unknown {
  return coerceSchema(node, def.schema, path);
}

function leaf(node: QueryNode, path: string): string {
  if (node.value === undefined) throw invalid(path, "needs a value.");
  if (/[\r\n]/.test(node.value) && !path.startsWith("data.")) {
    // Line breaks are allowed only where they are content (scripts, styles, function, rules).
    if (!/^(scripts|modules|styles|function)\b/.test(path)) {
      throw invalid(path, "must not contain line breaks.");
    }
  }
  return node.value;
}

function coerceSchema(node: QueryNode, schema: Schema, path: string): unknown {
  switch (schema.kind) {
    case "boolean":
      return coerceBoolean(leaf(node, path), path);
    case "string": {
      const text = leaf(node, path);
      if (schema.maxLength !== undefined && text.length > schema.maxLength) {
        throw invalid(path, `is longer than ${schema.maxLength} characters.`);
      }
      if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(text)) {
        throw invalid(path, `must match ${schema.pattern}, got "${text}".`);
      }
      return text;
    }
    case "integer":
    case "number":
      return coerceNumber(leaf(node, path), path, schema, schema.kind === "integer");
    case "enum": {
      const text = leaf(node, path);
      const match = schema.values.find((v) => v.toLowerCase() === text.toLowerCase());
      if (match === undefined) {
        throw invalid(path, `must be one of ${schema.values.join(", ")}, got "${text}".`);
      }
      return match;
    }
    case "duration": {
      const text = leaf(node, path);
      const alias = schema.aliases?.[text.toLowerCase()];
      if (alias !== undefined && Object.hasOwn(schema.aliases!, text.toLowerCase())) return alias;
      const ms = parseDuration(text);
      if (ms === null) {
        throw invalid(path, `must be a duration like 1500, 10s, 2h or 1d, got "${text}".`);
      }
      if (ms < schema.min || ms > schema.max) {
        throw invalid(path, `must be between ${schema.min} ms and ${schema.max} ms, got ${ms} ms.`);
      }
      return ms;
    }
    case "list": {
      if (node.kids.size === 0) return [coerceSchema(node, schema.of, path)];
      const items: [number, unknown][] = [];
      for (const [key, kid] of node.kids) {
        if (!/^\d+$/.test(key)) throw invalid(`${path}.${key}`, "is not a list index.");
        items.push([Number(key), coerceSchema(kid, schema.of, `${path}.${key}`)]);
      }
      return items.sort((a, b) => a[0] - b[0]).map(([, v]) => v);
    }
    case "object": {
      const out: Record<string, unknown> = {};
      if (schema.boolean) {
        out.enabled = node.value === undefined
          ? node.kids.size > 0
          : coerceBoolean(node.value, path);
      } else if (node.value !== undefined && node.kids.size === 0) {
        throw invalid(path, "is an object: set its members with dotted names.");
      }
      for (const [name, kid] of canonicalKids(node)) {
        const def = Object.hasOwn(schema.props, name) ? schema.props[name] : undefined;
        if (def) out[name] = coerceSchema(kid, def.schema, `${path}.${name}`);
        else if (schema.closed) throw unknownMember(`${path}.${name}`, schema.props);
      }
      return out;
    }
    case "headers":
      return coerceHeaders(node, path, schema);
    case "tree":
      return toPlain(node);
    case "stringOrTree":
      return node.kids.size > 0 ? toPlain(node) : leaf(node, path);
  }
}
