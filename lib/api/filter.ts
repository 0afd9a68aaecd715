/** `filter=title,image.url`: keep only those dot paths of data. */
import { ownField } from "./field_path.ts";

export function filterData(
  data: Record<string, unknown>,
  paths: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split(".");
    let source: unknown = data;
    let target: Record<string, unknown> = out;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      source = ownField(source, key);
      if (source === undefined) break;
      if (i === keys.length - 1) {
        target[key] = source;
      } else if (source !== null && typeof source === "object") {
        if (ownField(target, key) === undefined) target[key] = {};
        target = target[key] as Record<string, unknown>;
      } else {
        // A path through a scalar keeps the scalar itself (e.g. `image.url` with image null).
        target[key] = source;
        break;
      }
    }
  }
  return out;
}
