/**
 * Dot paths into payload data (`image.url`, `j.items.0`) for `embed` and `filter`. Only own,
 * enumerable data fields are read, never inherited members (`toString`, `constructor`); a
 * page's own `__proto__` key (JSON.parse makes one) is data like any other.
 */

const isEnumerableOwn = Function.call.bind(Object.prototype.propertyIsEnumerable) as (
  object: object,
  key: string,
) => boolean;

/** The own field `key` of `value`, or undefined when `value` has no such field. */
export function ownField(value: unknown, key: string): unknown {
  if (value === null || typeof value !== "object") return undefined;
  return isEnumerableOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** The value at a dot path, or undefined when a step is missing. */
export function fieldAt(data: unknown, path: string): unknown {
  let value = data;
  for (const key of path.split(".")) value = ownField(value, key);
  return value;
}
