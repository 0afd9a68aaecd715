/**
 * PARAMS as OpenAPI query parameters. Nothing here restates a parameter:
 * names, types, limits, descriptions and examples all come from the one definition the parser
 * reads, so the document cannot drift from what the service accepts.
 */
import { type ParamDef, PARAMS, type Schema } from "../params/schema.ts";

export type JsonObject = Record<string, unknown>;

const DURATION_TEXT = "^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)?\\s*$";
const SIDES = ["top", "right", "bottom", "left"];

/** camelCase -> snake_case, segment by segment (`screenshot.fullPage` -> `screenshot.full_page`). */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The JSON Schema of one leaf value as it appears in a query string. */
export function valueSchema(schema: Schema): JsonObject {
  switch (schema.kind) {
    case "boolean":
      return { type: "boolean" };
    case "string":
      return {
        type: "string",
        ...(schema.maxLength ? { maxLength: schema.maxLength } : {}),
        ...(schema.pattern ? { pattern: schema.pattern } : {}),
      };
    case "integer":
    case "number":
      return { type: schema.kind, minimum: schema.min, maximum: schema.max };
    case "enum":
      return { type: "string", enum: [...schema.values] };
    case "duration": {
      const aliases = Object.keys(schema.aliases ?? {});
      return {
        description:
          `Milliseconds, or a number with a unit (ms, s, m, h, d); ${schema.min} ms to ${schema.max} ms` +
          (aliases.length ? `; or ${aliases.join(", ")}.` : "."),
        oneOf: [
          { type: "integer", minimum: schema.min, maximum: schema.max },
          { type: "string", pattern: DURATION_TEXT },
          ...(aliases.length ? [{ enum: aliases }] : []),
        ],
      };
    }
    case "list":
      return { oneOf: [valueSchema(schema.of), { type: "array", items: valueSchema(schema.of) }] };
    case "object":
      return schema.boolean ? { type: "boolean" } : { type: "object" };
    case "headers":
    case "tree":
    case "stringOrTree":
      return { type: "string" };
  }
}

/**
 * PARAMS keeps examples as query text; a document's example is typed as its schema says
 * ("true" is the boolean true, "80" the integer 80), or linters and generated clients refuse it.
 */
export function typedExample(text: string, schema: JsonObject): unknown {
  if (schema.type === "boolean") return text === "true";
  if (schema.type === "integer" || schema.type === "number") return Number(text);
  return text;
}

function parameter(name: string, schema: JsonObject, def: ParamDef, note = ""): JsonObject {
  const snake = snakeCase(name);
  return {
    name,
    in: "query",
    // Only the target is required; GET / without it is EINVALURL (or the playground).
    required: name === "url",
    description: def.description + note,
    schema,
    ...(def.example !== undefined ? { example: typedExample(def.example, schema) } : {}),
    // Both spellings reach the same value; the parser normalises names (toCamel).
    ...(snake !== name ? { "x-snake-case": snake } : {}),
  };
}

function walk(name: string, def: ParamDef, out: JsonObject[]): void {
  const schema = def.schema;
  switch (schema.kind) {
    case "object":
      if (schema.boolean) {
        out.push(parameter(name, { type: "boolean" }, def, ` Members as \`${name}.<member>\`.`));
      }
      for (const [member, memberDef] of Object.entries(schema.props)) {
        walk(`${name}.${member}`, memberDef, out);
      }
      return;
    case "list":
      out.push(parameter(
        name,
        valueSchema(schema),
        def,
        ` Several values as \`${name}.0\`, \`${name}.1\`, ...`,
      ));
      return;
    case "headers":
      out.push(parameter(
        `${name}.<name>`,
        { type: "string", maxLength: schema.maxLength, pattern: "^[^\\r\\n]*$" },
        def,
        ` At most ${schema.maxCount} headers.`,
      ));
      return;
    case "tree":
      out.push(parameter(`${name}.<key>`, { type: "string" }, def));
      return;
    case "stringOrTree":
      out.push(parameter(name, { type: "string" }, def));
      for (const side of SIDES) {
        out.push(parameter(`${name}.${side}`, { type: "string" }, def, ` (${side} only)`));
      }
      return;
    default:
      out.push(parameter(name, valueSchema(schema), def));
  }
}

/** Every parameter of PARAMS, objects flattened to dotted names as @microlink/mql sends them. */
export function queryParameters(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [name, def] of Object.entries(PARAMS)) walk(name, def, out);
  return out;
}
