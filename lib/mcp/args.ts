/**
 * Tool arguments as JSON Schema, and back to an API query. A tool's arguments are API
 * parameters as nested JSON (`{ viewport: { width: 800 } }`), so their schemas are made from
 * PARAMS, the one definition the query parser reads: types, limits and descriptions cannot
 * drift from what the API accepts. Flattening writes them as the dotted names @microlink/mql
 * sends (`viewport.width=800`, `click.0=a`), and the API checks every value as it checks any
 * query.
 */
import { type ParamDef, PARAMS, type Schema } from "../params/schema.ts";
import { RULE_TYPES } from "../extract/custom/value_types.ts";
import { MAX_ATTRS } from "../extract/custom/rules.ts";
import { type JsonObject, valueSchema } from "../openapi/query.ts";
import { MAX_NAME_DEPTH } from "../params/tree.ts";
import { ApiError } from "../util/errors.ts";

export type { JsonObject };

const SIDES = ["top", "right", "bottom", "left"];

/** One custom rule of the `data` argument, as the API's rule language has it. */
const RULE_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    selector: {
      description: "CSS selector(s) of the element read; without one, the whole page.",
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    },
    selectorAll: {
      description: "Like selector, but every match gives a value (an array).",
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    },
    attr: {
      description: "What is read: an attribute name, or html, outerHTML, text, markdown, val, " +
        "json; or nested rules run inside the match.",
      anyOf: [
        { type: "string" },
        { type: "array", items: { type: "string" }, maxItems: MAX_ATTRS },
        { type: "object" },
      ],
    },
    type: {
      description: "How the value is read and checked.",
      anyOf: [
        { type: "string", enum: [...RULE_TYPES] },
        {
          type: "array",
          items: { type: "string", enum: [...RULE_TYPES] },
          maxItems: RULE_TYPES.length,
        },
      ],
    },
    evaluate: { type: "string", description: "JavaScript computed in the page by the browser." },
  },
};

/** The JSON Schema of one argument made from its parameter definition. */
export function argSchema(def: ParamDef): JsonObject {
  return { ...schemaOf(def.schema), description: def.description };
}

function schemaOf(schema: Schema): JsonObject {
  switch (schema.kind) {
    case "object": {
      const members: JsonObject = {
        type: "object",
        properties: Object.fromEntries(
          Object.entries(schema.props).map(([name, def]) => [name, argSchema(def)]),
        ),
        additionalProperties: false,
      };
      return schema.boolean ? { anyOf: [{ type: "boolean" }, members] } : members;
    }
    case "list":
      return { anyOf: [valueSchema(schema.of), { type: "array", items: valueSchema(schema.of) }] };
    case "headers":
      return {
        type: "object",
        maxProperties: schema.maxCount,
        additionalProperties: {
          type: "string",
          maxLength: schema.maxLength,
          pattern: "^[^\\r\\n]*$",
        },
      };
    case "tree":
      return {
        type: "object",
        additionalProperties: {
          anyOf: [RULE_SCHEMA, { type: "array", items: RULE_SCHEMA }],
        },
      };
    case "stringOrTree":
      return {
        anyOf: [
          { type: "string" },
          {
            type: "object",
            properties: Object.fromEntries(SIDES.map((side) => [side, { type: "string" }])),
            additionalProperties: false,
          },
        ],
      };
    default:
      return valueSchema(schema);
  }
}

/** The schemas of API parameters, by name, for a tool's `properties`. */
export function paramArgs(names: readonly string[], from = PARAMS): Record<string, JsonObject> {
  return Object.fromEntries(names.map((name) => {
    const def = from[name];
    if (!def) throw new Error(`no API parameter named ${name}`);
    return [name, argSchema(def)];
  }));
}

/**
 * Appends `value` under `name` as query parameters: objects and arrays as dotted names, the
 * rest as text. Free-form arguments (a rule's nested `attr`) are not bounded by their schema:
 * past the API's deepest name (MAX_NAME_DEPTH levels) they are EINVALQUERY, as the query
 * parser says of such a name, before the recursion could overflow the stack.
 */
export function appendArg(
  query: URLSearchParams,
  name: string,
  value: unknown,
  levels = name.split(".").length,
): void {
  if (value === null || value === undefined) return;
  if (levels > MAX_NAME_DEPTH) {
    throw new ApiError(
      "EINVALQUERY",
      `The argument \`${name.split(".", 3).join(".")}...\` nests too deep ` +
        `(at most ${MAX_NAME_DEPTH} dotted levels).`,
    );
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => appendArg(query, `${name}.${index}`, item, levels + 1));
  } else if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      appendArg(query, `${name}.${key}`, item, levels + 1);
    }
  } else {
    query.append(name, String(value));
  }
}
