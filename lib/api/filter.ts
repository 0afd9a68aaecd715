/** `filter=title,image.url`: keep only those dot paths of data. */
import { ownField, setOwnField } from "./field_path.ts";

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
        setOwnField(target, key, source);
      } else if (source !== null && typeof source === "object") {
        const kept = ownField(target, key);
        if (kept === undefined) setOwnField(target, key, {});
        target = ownField(target, key) as Record<string, unknown>;
      } else {
        // A path through a scalar keeps the scalar itself (e.g. `image.url` with image null).
        setOwnField(target, key, source);
        break;
      }
    }
  }
  return out;
}
